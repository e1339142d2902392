"""The per-player world model, fed by events decoded from packets.

How this works: ``apply(event)`` folds one event into mutable state; ``snapshot()``
returns a frozen ``WorldSnapshot`` for readers. Everything that changes the model
goes through ``apply`` so the order of packets is the only source of truth.

A snapshot is built from three parts, each kept until an event changes it: the player's
own state, the entities, the player list. The tick and every reflex check on the player's
own movement read a snapshot (up to ~40 a second with the reflexes on): when nothing changed
in between, the same snapshot is returned; a mob's move rebuilds only the entities, the
player's own movement and look only the player's state.
"""
from __future__ import annotations

import attrs

from engine import events as ev
from engine.events import SlotItem
from engine.world.snapshot import EntityView, PlayerState, Vec3, WorldSnapshot

INVENTORY_SLOTS = 46
# Events that change only the entities, or only the player list (every other one may change
# the player's own state, and a respawn the entities too: those drop every part).
ENTITY_EVENTS = (ev.EntitySpawned, ev.EntityMoved, ev.EntityMovedBy, ev.EntitiesRemoved, ev.EntitySheared)
PLAYER_LIST_EVENTS = (ev.PlayerListed, ev.PlayerUnlisted)
# The player's own position and look: only the player's own state changes.
OWN_MOVES = (ev.PositionSet, ev.LookSet)


class WorldModel:
    def __init__(self, player_name: str, version: str | None = None) -> None:
        self.player_name = player_name
        self.version = version
        self.locale: str | None = None
        self.entity_id: int | None = None
        self.position: Vec3 | None = None
        self.yaw = 0.0
        self.pitch = 0.0
        self.on_ground = False
        self.health: float | None = None
        self.food: int | None = None
        self.saturation: float | None = None
        self.xp_level: int | None = None
        self.xp_bar: float | None = None
        self.game_mode: int | None = None
        self.dimension: str | None = None
        self.held_slot = 0
        self.air: int | None = None
        self.burning = False
        self.inventory: list[SlotItem | None] = [None] * INVENTORY_SLOTS
        self.time_of_day: int | None = None
        self.players: dict[str, str] = {}
        self.entities: dict[int, EntityView] = {}
        self._snapshot: WorldSnapshot | None = None
        self._player: PlayerState | None = None
        self._entities: tuple[EntityView, ...] | None = None
        self._online: tuple[str, ...] | None = None

    def apply(self, event: ev.Event) -> None:
        self._snapshot = None
        if type(event) is ev.PositionSet:  # the most frequent (the client's own movement): its own state only
            self._player = None
            self._set_position(event)
            return
        if type(event) is ev.EntityMoved or type(event) is ev.EntityMovedBy:  # a mob's step: the entities only
            self._entities = None
            self._move_entity(event)
            return
        if isinstance(event, ENTITY_EVENTS):
            self._entities = None
        elif isinstance(event, PLAYER_LIST_EVENTS):
            self._online = None
        elif isinstance(event, OWN_MOVES):
            self._player = None
        else:
            self._player = self._entities = self._online = None
        match event:
            case ev.ClientSettings(locale=locale):
                self.locale = locale
            case ev.JoinedGame(entity_id=eid, game_mode=mode, dimension=dim):
                self.entity_id = eid
                self.game_mode = mode
                self.dimension = dim
            case ev.Respawned(game_mode=mode, dimension=dim):
                if dim != self.dimension:
                    self.entities.clear()
                self.game_mode = mode
                self.dimension = dim
            case ev.PositionSet():
                self._set_position(event)
            case ev.LookSet(yaw=yaw, pitch=pitch, on_ground=on_ground):
                self.yaw, self.pitch, self.on_ground = yaw, pitch, on_ground
            case ev.HealthChanged(health=health, food=food, saturation=sat):
                self.health, self.food, self.saturation = health, food, sat
            case ev.ExperienceChanged(bar=bar, level=level):
                self.xp_bar, self.xp_level = bar, level
            case ev.GameModeChanged(game_mode=mode):
                self.game_mode = mode
            case ev.PlayerListed(uuid=uuid, name=name):
                self.players[uuid] = name
            case ev.PlayerUnlisted(uuid=uuid):
                self.players.pop(uuid, None)
            case ev.EntitySpawned(entity_id=eid, kind=kind, uuid=uuid):
                listed: str | None = self.players.get(uuid) if uuid else None
                self.entities[eid] = EntityView(eid, kind, Vec3(event.x, event.y, event.z), uuid, listed,
                                                event.category)
            case ev.OwnMetadata(burning=burning, air=air):
                if burning is not None:
                    self.burning = burning
                if air is not None:
                    self.air = air
            case ev.EntitySheared(entity_id=eid, sheared=sheared):
                old = self.entities.get(eid)
                if old is not None:
                    self.entities[eid] = attrs.evolve(old, sheared=sheared)
            case ev.EntityMoved() | ev.EntityMovedBy():
                self._move_entity(event)
            case ev.EntitiesRemoved(entity_ids=ids):
                for eid in ids:
                    self.entities.pop(eid, None)
            case ev.HeldSlotChanged(slot=slot):
                if 0 <= slot <= 8:
                    self.held_slot = slot
            case ev.InventoryReplaced(slots=slots):
                items = list(slots[:INVENTORY_SLOTS])
                self.inventory = items + [None] * (INVENTORY_SLOTS - len(items))
            case ev.TimeUpdated(time_of_day=t):
                self.time_of_day = abs(t) % 24000
            case ev.InventorySlotSet(slot=slot, item=item):
                if 0 <= slot < INVENTORY_SLOTS:
                    self.inventory[slot] = item
            case _:
                pass

    def _move_entity(self, event: ev.EntityMoved | ev.EntityMovedBy) -> None:
        old = self.entities.get(event.entity_id)
        if old is None:
            return
        if isinstance(event, ev.EntityMoved):
            position = Vec3(event.x, event.y, event.z)
        else:
            p = old.position
            position = Vec3(p.x + event.dx, p.y + event.dy, p.z + event.dz)
        # What attrs.evolve(old, position=position) builds, without its per-call field walk.
        self.entities[event.entity_id] = EntityView(old.entity_id, old.kind, position, old.uuid, old.name, old.category,
                                                         old.sheared)

    def _set_position(self, event: ev.PositionSet) -> None:
        rel = event.relative
        base = self.position or Vec3(0.0, 0.0, 0.0)
        x = base.x + event.x if "x" in rel else event.x
        y = base.y + event.y if "y" in rel else event.y
        z = base.z + event.z if "z" in rel else event.z
        self.position = Vec3(x, y, z)
        # A client position packet without look fields carries NaN for them.
        if event.yaw == event.yaw:
            self.yaw = self.yaw + event.yaw if "yaw" in rel else event.yaw
        if event.pitch == event.pitch:
            self.pitch = self.pitch + event.pitch if "pitch" in rel else event.pitch
        if not event.from_server:
            self.on_ground = event.on_ground

    @property
    def night(self) -> bool:
        """Whether beds work now (vanilla: from tick 12542 to 23459 of the day, clear weather)."""
        return self.time_of_day is not None and 12542 <= self.time_of_day <= 23459

    def snapshot(self) -> WorldSnapshot:
        if self._snapshot is None:
            if self._player is None:
                self._player = self._player_state()
            if self._entities is None:
                self._entities = tuple(self.entities.values())
            if self._online is None:
                self._online = tuple(sorted(self.players.values()))
            self._snapshot = WorldSnapshot(player_name=self.player_name, locale=self.locale, player=self._player,
                                           online_players=self._online, entities=self._entities,
                                           version=self.version)
        return self._snapshot

    def _player_state(self) -> PlayerState:
        return PlayerState(
            position=self.position,
            yaw=self.yaw,
            pitch=self.pitch,
            on_ground=self.on_ground,
            health=self.health,
            food=self.food,
            saturation=self.saturation,
            xp_level=self.xp_level,
            xp_bar=self.xp_bar,
            game_mode=self.game_mode,
            dimension=self.dimension,
            held_slot=self.held_slot,
            inventory=tuple(self.inventory),
            air=self.air,
            burning=self.burning,
        )

"""SimWorld: a small deterministic survival world that answers actions with events.

How this works: the world is a ``BlockStore`` of a few chunk columns (1.18.2
block states) generated from a seed: rolling grass and dirt over stone, oak
trees, rocky outcrops with iron ore showing, a pond and a lava pool. The
player, dropped items, zombies and cows are plain records here. Each tick the host
calls ``tick(t)`` (the server's own tick: time of day, air, lava and fire,
hunger and natural regeneration, mobs, item pickup, smelting, death) and
``apply(actions, t)`` (what the client sent: movement, digging, placing,
crafting, ...). Both return the engine events a proxy would decode from the
server's packets. Nothing reads a
clock or a global random source: the seed and the tick number are the only
inputs, so an episode replays exactly.

Hunger is vanilla's FoodData (see the constants below): what the player does
adds exhaustion, every 4 of it costs a point of saturation, or of food once
saturation is gone, and the food bar decides regeneration and starvation on
the food's own timer. Standing still costs nothing, as in vanilla.

The server checks what vanilla checks (reach, dig time with a 0.7 tolerance,
held item, ingredients, a crafting table or furnace within reach) and, like
vanilla, ignores what fails. Ingredients are vanilla's tags (``Recipe.needs``):
planks of any species make sticks, tables and pickaxes, a log makes its own
species' planks, cobbled deepslate does what cobblestone does, and any iron
ore or raw iron smelts. Movement is taken as sent and replayed through
the vanilla-movement checker, which is the test of the engine's legality.

Where the parts live: ``generation`` (the terrain, cows and bed from the seed), ``server``
(``ServerWorld``: the state, the join events and the server's tick), ``rules`` (the figures),
``records`` (the options and the plain bodies); this module is ``SimWorld``, the server's
answers to what the client sent, one handler per action type.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

from engine import events as ev
from engine import actions as acts
from engine.actions import InjectMovement, ReleaseHeldItem, SelectHotbar, UseHeldItem
from engine.decision.knowledge import ATTACK_DAMAGE, BLOCKS, FUEL, GAME, HOES, RECIPES, SMELT_TICKS, SMELTS, \
    dig_ticks, harvestable, members, spend
from engine.decision.knowledge import count as family_count
from engine.motion import grid as g
from engine.motion import physics as ph
from engine.motion.checker import Movement
from engine.world.food import FOODS
from engine.sim.farming import SEEDS, plant, till
from engine.sim.server import ServerWorld
from engine.sim.surface import animal_loot, loot
from engine.sim.rules import (ATTACK_EXHAUSTION, BED_NIGHT, COW_DROPS, COW_SPEED, EYE, HEIGHT, JUMP_EXHAUSTION,
                              MAX_FOOD, MINE_EXHAUSTION, SPRINT_EXHAUSTION, SPRINT_JUMP_EXHAUSTION, VERSION,
                              SHEAR_WOOL, WATER_EXHAUSTION)
from engine.sim.records import Drop, Mob, SimOptions, SmeltJob
from engine.world.vanilla import HOTBAR_FIRST_SLOT


__all__ = ["COW_SPEED", "HEIGHT", "VERSION", "Mob", "ServerWorld", "SimOptions", "SimWorld"]


class SimWorld(ServerWorld):
    # -- what the client sent --------------------------------------------------------------------
    def apply(self, actions: Iterable[object], t: int) -> list[ev.Event]:
        out: list[ev.Event] = []
        for action in actions:
            handler = _HANDLERS.get(type(action))
            if handler is None:
                raise TypeError(f"no handler for {type(action).__name__} in engine.sim.world._HANDLERS")
            handler(self, action, t, out)
        return out

    def _not_the_servers(self, a: object, t: int, out: list[ev.Event]) -> None:
        """Between the player and the proxy (replies, chat, control, pings, model calls): no server sees it."""

    def _swing(self, a: acts.SwingArm, t: int, out: list[ev.Event]) -> None:
        """An arm swing is only shown to others; nothing changes in the world."""

    def _reject(self, why: str) -> None:
        self.rejected[why] = self.rejected.get(why, 0) + 1

    def _move(self, a: InjectMovement, t: int, out: list[ev.Event]) -> None:
        p = self.player
        if p.dead or p.sleeping is not None:
            return              # a body in bed stays in bed (it leaves it at the morning)
        # The server knows of a sprint from the client's sprint command (the proxy sends it with
        # the step's flag); a sprint-speed step without it is a checker violation.
        self.checker.feed(Movement(t, a.x, a.y, a.z, a.on_ground, a.sprinting))
        dx, dy, dz = a.x - p.x, a.y - p.y, a.z - p.z
        p.sprinting = a.sprinting
        if p.on_ground and not a.on_ground and dy > 0:
            # As the server does: onGround before, a packet off the ground going up is a jump.
            self._exhaust(SPRINT_JUMP_EXHAUSTION if p.sprinting else JUMP_EXHAUSTION)
        p.x, p.y, p.z, p.on_ground = a.x, a.y, a.z, a.on_ground
        self._movement_exhaustion(dx, dy, dz, a.on_ground)
        if ph.touching(self.terrain, p.x, p.y, p.z, g.WATER | g.LAVA):
            p.peak_y = p.y
        elif a.on_ground:
            fall = p.peak_y - p.y
            if fall > 3.0:
                self._hurt(math.ceil(fall - 3.0), "fall", out)
            p.peak_y = p.y
        else:
            p.peak_y = max(p.peak_y, p.y)

    def _movement_exhaustion(self, dx: float, dy: float, dz: float, on_ground: bool) -> None:
        """Player.checkMovementStatistics: distance counted in whole centimetres, as vanilla rounds it."""
        p = self.player
        eyes = self.terrain.cell(math.floor(p.x), math.floor(p.y + EYE), math.floor(p.z)) & g.WATER
        if eyes:
            self._exhaust(WATER_EXHAUSTION * _centimetres(math.sqrt(dx * dx + dy * dy + dz * dz)) * 0.01)
        elif ph.touching(self.terrain, p.x, p.y, p.z, g.WATER):
            self._exhaust(WATER_EXHAUSTION * _centimetres(math.hypot(dx, dz)) * 0.01)
        elif on_ground and p.sprinting:
            self._exhaust(SPRINT_EXHAUSTION * _centimetres(math.hypot(dx, dz)) * 0.01)

    def _select(self, a: SelectHotbar, t: int, out: list[ev.Event]) -> None:
        if 0 <= a.slot <= 8:
            self.player.held = a.slot
            self.player.eating = None

    def _use(self, a: UseHeldItem, t: int, out: list[ev.Event]) -> None:
        # Vanilla (Player.canEat): none of these foods can be started on a full food bar.
        p = self.player
        if self.held_item() in FOODS and not p.dead and p.food < MAX_FOOD:
            p.eating = t

    def _release(self, a: ReleaseHeldItem, t: int, out: list[ev.Event]) -> None:
        self.player.eating = None

    def _start_dig(self, a: acts.StartDigging, t: int, out: list[ev.Event]) -> None:
        name = self.block(a.x, a.y, a.z)
        if self.player.dead or name in (None, "air") or not self._reach(a.x + 0.5, a.y + 0.5, a.z + 0.5):
            self._reject("dig out of reach")
            return
        self.player.dig = (a.x, a.y, a.z, t)

    def _finish_dig(self, a: acts.FinishDigging, t: int, out: list[ev.Event]) -> None:
        p = self.player
        dig, p.dig = p.dig, None
        name = self.block(a.x, a.y, a.z)
        state = self.store.get(a.x, a.y, a.z)
        if dig is None or dig[:3] != (a.x, a.y, a.z) or name is None or state is None:
            self._reject("finish without start")
            if state is not None:     # as a vanilla server does: the client's predicted break is undone
                out.append(ev.BlocksChanged(((a.x, a.y, a.z, state),)))
            return
        held = self.held_item()
        need = dig_ticks(name, held)
        if need is None or t - dig[3] < 0.7 * need or not self._reach(a.x + 0.5, a.y + 0.5, a.z + 0.5):
            self._reject("dug too fast" if need is not None else "unbreakable")
            out.append(ev.BlocksChanged(((a.x, a.y, a.z, state),)))
            return
        self.store.set_block(a.x, a.y, a.z, self.air)
        out.append(ev.BlocksChanged(((a.x, a.y, a.z, self.air),)))
        out += self.underground.dug(a.x, a.y, a.z)
        if harvestable(name, held):
            self._exhaust(MINE_EXHAUSTION)
        rule = BLOCKS.get(name)
        if rule is not None and rule.drop is not None and harvestable(name, held):
            drops = loot(name, state - self.table.states_of(name).start, self.loot_rng) or [(rule.drop, 1)]
            if name == "sugar_cane":
                # Vanilla: the cane above cannot stand on air and breaks too, each dropping itself.
                above = a.y + 1
                while self.block(a.x, above, a.z) == "sugar_cane":
                    self.store.set_block(a.x, above, a.z, self.air)
                    out.append(ev.BlocksChanged(((a.x, above, a.z, self.air),)))
                    drops.append(("sugar_cane", 1))
                    above += 1
            y = self.fall_to(a.x, a.y, a.z)
            for item, n in drops:
                self._spawn_drop(item, n, a.x + 0.5, y, a.z + 0.5, t, out)

    def _place(self, a: acts.PlaceBlock, t: int, out: list[ev.Event]) -> None:
        p = self.player
        if a.item in SEEDS:
            self._plant(a, t, out)
            return
        if self.held_item() != a.item or self.block(a.x, a.y, a.z) != "air" or not self.solid(*a.against) \
                or not self._reach(a.x + 0.5, a.y + 0.5, a.z + 0.5):
            self._reject("place refused")
            return
        overlap = (a.x - 0.3 < p.x < a.x + 1.3 and a.z - 0.3 < p.z < a.z + 1.3 and a.y - 1.8 < p.y < a.y + 1)
        # Vanilla refuses a block whose cell a mob's body (0.6 wide, 1.95 high) is in, as the player's.
        overlap = overlap or any(a.x - 0.3 < m.x < a.x + 1.3 and a.z - 0.3 < m.z < a.z + 1.3 and a.y - 1.95 < m.y < a.y + 1
                                 for m in self.mobs.values())
        if overlap or not self.take(a.item, 1):
            self._reject("place refused")
            return
        state = self.table.state_for(a.item)
        self.store.set_block(a.x, a.y, a.z, state)
        self.underground.placed(a.x, a.y, a.z, a.item)
        out += [ev.BlocksChanged(((a.x, a.y, a.z, state),)), self._inventory()]

    def _plant(self, a: acts.PlaceBlock, t: int, out: list[ev.Event]) -> None:
        """Seeds used on farmland's top face: a crop of age 0 above it (``farming.plant``)."""
        state = plant(self.store, self.table, a.item, a.x, a.y, a.z) \
            if self.held_item() == a.item and a.face == 1 and a.against == (a.x, a.y - 1, a.z) else None
        if state is None or self.player.dead or not self._reach(a.x + 0.5, a.y + 0.5, a.z + 0.5) \
                or not self.take(a.item, 1):
            self._reject("plant refused")
            return
        self.store.set_block(a.x, a.y, a.z, state)
        self.crops.planted((a.x, a.y, a.z), t)
        out += [ev.BlocksChanged(((a.x, a.y, a.z, state),)), self._inventory()]

    def _use_block(self, a: acts.UseBlock, t: int, out: list[ev.Event]) -> None:
        """Vanilla's BedBlock.use / ServerPlayer.startSleepInBed: only at night, within 3 blocks
        across and 2 up or down, with no monster within 8 across and 5 up or down; the refusals
        are the action-bar messages vanilla shows. A hoe held tills the block (``farming.till``)."""
        p = self.player
        if self.held_item() in HOES:
            state = till(self.store, self.table, a.x, a.y, a.z, a.face)
            if state is None or p.dead or not self._reach(a.x + 0.5, a.y + 0.5, a.z + 0.5):
                self._reject("till refused")
                return
            self.store.set_block(a.x, a.y, a.z, state)
            out.append(ev.BlocksChanged(((a.x, a.y, a.z, state),)))
            return
        name = self.block(a.x, a.y, a.z) or ""
        if p.dead or not name.endswith("bed"):
            self._reject("use refused")
            return
        why = None
        if not BED_NIGHT[0] <= self.day_time <= BED_NIGHT[1]:
            why = "You can only sleep at night"
        elif not (abs(p.x - (a.x + 0.5)) <= 3.0 and abs(p.y - a.y) <= 2.0 and abs(p.z - (a.z + 0.5)) <= 3.0):
            why = "You may not rest now; the bed is too far away"
        elif any(abs(m.x - p.x) <= 8.0 and abs(m.y - p.y) <= 5.0 and abs(m.z - p.z) <= 8.0
                 for m in self.mobs.values()):
            why = "You may not rest now; there are monsters nearby"
        if why is not None:
            self._reject("bed: " + why)
            out.append(ev.ServerChatSeen(why))
            return
        p.sleeping = t
        p.eating = p.dig = None
    def _swap(self, a: acts.SwapToHotbar, t: int, out: list[ev.Event]) -> None:
        slots = self.player.slots
        if 9 <= a.slot < 45 and 0 <= a.hotbar <= 8:
            h = HOTBAR_FIRST_SLOT + a.hotbar
            slots[a.slot], slots[h] = slots[h], slots[a.slot]
            out.append(self._inventory())

    def _near(self, pos: tuple[int, int, int] | None, name: str) -> bool:
        return pos is not None and self.block(*pos) == name and self._reach(pos[0] + 0.5, pos[1] + 0.5, pos[2] + 0.5)

    def _craft(self, a: acts.CraftItem, t: int, out: list[ev.Event]) -> None:
        recipe = RECIPES.get(a.item)
        if recipe is None or a.times < 1 or (recipe.needs_table and not self._near(a.table, "crafting_table")):
            self._reject("craft refused")
            return
        have = self.counts()
        left = dict(have)
        for name, n in recipe.needs:
            # Any member of a tag fills its slots (species may mix); an item fills one slot only.
            if family_count(name, left) < n * a.times:
                self._reject("craft refused")
                return
            spend(name, n * a.times, left)
        for item, n in have.items():
            if left[item] < n:
                self.take(item, n - left[item])
        self.give(a.item, recipe.count * a.times)
        out.append(self._inventory())

    def _smelt(self, a: acts.SmeltStart, t: int, out: list[ev.Event]) -> None:
        output = next((o for o, raw in SMELTS.items() if a.item in members(raw)), None)
        if output is None or not self._near(a.furnace, "furnace") or a.furnace in self.smelting \
                or a.fuel_count * FUEL.get(a.fuel, 0.0) < a.count \
                or self.count(a.item) < a.count or self.count(a.fuel) < a.fuel_count:
            self._reject("smelt refused")
            return
        self.take(a.item, a.count)
        self.take(a.fuel, a.fuel_count)
        self.smelting[a.furnace] = SmeltJob(output, a.count, t)
        out.append(self._inventory())

    def _collect(self, a: acts.SmeltCollect, t: int, out: list[ev.Event]) -> None:
        job = self.smelting.get(a.furnace)
        if job is None or not self._near(a.furnace, "furnace"):
            self._reject("collect refused")
            return
        done = min(job.count, (t - job.started) // SMELT_TICKS) - job.collected
        if done > 0:
            self.give(job.output, done)
            job.collected += done
            out.append(self._inventory())
        if job.collected >= job.count:
            del self.smelting[a.furnace]

    def _attack(self, a: acts.AttackEntity, t: int, out: list[ev.Event]) -> None:
        target = self.mobs.get(a.entity_id) or self.animals.get(a.entity_id)
        if target is None or self.player.dead or not self._reach(target.x, target.y + 1.0, target.z, 4.0):
            self._reject("attack refused")
            return
        target.health -= ATTACK_DAMAGE.get(self.held_item() or "", 1.0)
        self._exhaust(ATTACK_EXHAUSTION)
        if target.health > 0:
            return
        out.append(ev.EntitiesRemoved((target.entity_id,)))
        if isinstance(target, Mob):
            del self.mobs[target.entity_id]
            return
        del self.animals[target.entity_id]
        loot: list[tuple[str, int]] = []
        if target.kind in GAME:
            lo, hi = COW_DROPS
            loot.append((GAME[target.kind], int(self.animal_rng.integers(lo, hi + 1))))
        loot += [(item, n) for item, n in animal_loot(target.kind, self.loot_rng)
                 if not (target.sheared and item == "white_wool")]
        for item, n in loot:
            if n > 0:
                self._spawn_drop(item, n, target.x, target.y, target.z, t, out)

    def _interact(self, a: acts.InteractEntity, t: int, out: list[ev.Event]) -> None:
        """Shears on an unsheared sheep: the wool drops beside it (the only interaction modelled)."""
        target = self.animals.get(a.entity_id)
        if target is None or self.player.dead or not self._reach(target.x, target.y + 1.0, target.z, 4.0):
            self._reject("interact refused")
            return
        if a.off_hand or target.kind != "sheep" or target.sheared or self.held_item() != "shears":
            return  # vanilla: nothing happens
        target.sheared = True
        out.append(ev.EntitySheared(target.entity_id, True))     # the wool byte's metadata, as vanilla sends it
        lo, hi = SHEAR_WOOL
        self._spawn_drop("white_wool", int(self.shear_rng.integers(lo, hi + 1)), target.x, target.y + 1.0, target.z,
                         t, out)

    def _spawn_drop(self, item: str, n: int, x: float, y: float, z: float, t: int, out: list[ev.Event]) -> None:
        """An item stack on the ground, as a server spawns one (a dug block's, a kill's, a shearing's)."""
        drop = Drop(self._new_id(), item, n, x, y, z, t)
        self.drops[drop.entity_id] = drop
        out.append(ev.EntitySpawned(drop.entity_id, "item", x, y, z))

    def _respawn(self, a: acts.Respawn, t: int, out: list[ev.Event]) -> None:
        if not self.player.dead:
            return
        # Vanilla drops the inventory where the player died; here it is simply lost.
        self.player = self._new_player()
        self.checker.teleport(self.player.x, self.player.y, self.player.z, t)
        out.append(ev.Respawned(0, "minecraft:overworld"))
        out += self._respawn_events()


def _centimetres(distance: float) -> int:
    return math.floor(distance * 100.0 + 0.5)     # Java's Math.round


# Every type of ``engine.actions.ACTIONS`` has an entry (a test checks it), so an action the
# simulator does not know is an error, never silently dropped.
_HANDLERS: dict[type, Callable[[SimWorld, Any, int, list[ev.Event]], None]] = {
    acts.ReplyToPlayer: SimWorld._not_the_servers,
    acts.ForwardChat: SimWorld._not_the_servers,
    acts.MeasurePing: SimWorld._not_the_servers,
    acts.SwitchServer: SimWorld._not_the_servers,  # the simulated world is one server
    acts.Kick: SimWorld._not_the_servers,
    acts.AdminCommand: SimWorld._not_the_servers,
    acts.SetControl: SimWorld._not_the_servers,
    acts.SwingArm: SimWorld._swing,
    InjectMovement: SimWorld._move,
    SelectHotbar: SimWorld._select,
    UseHeldItem: SimWorld._use,
    ReleaseHeldItem: SimWorld._release,
    acts.StartDigging: SimWorld._start_dig,
    acts.FinishDigging: SimWorld._finish_dig,
    acts.PlaceBlock: SimWorld._place,
    acts.SwapToHotbar: SimWorld._swap,
    acts.CraftItem: SimWorld._craft,
    acts.SmeltStart: SimWorld._smelt,
    acts.SmeltCollect: SimWorld._collect,
    acts.AttackEntity: SimWorld._attack,
    acts.InteractEntity: SimWorld._interact,
    acts.UseBlock: SimWorld._use_block,
    acts.Respawn: SimWorld._respawn,
}

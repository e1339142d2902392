"""The autopilot inside a live Session: switched by chat, ticked after reflexes, stopped by the player.

The world is the headless simulator's, fed to the Session as the proxy would
feed a server's packets; nothing here calls the Autopilot directly.
"""
from __future__ import annotations

from engine import events as ev
from engine.actions import Action, InjectMovement, ReleaseHeldItem, ReplyToPlayer, SelectHotbar, SetControl, UseHeldItem
from engine import actions as acts
from engine.assistant import AssistantRuntime, LocalAssistant
from engine.decision.providers import MockProvider
from engine.pilot import LOG_EVERY, EpisodeRecord, PilotSettings
from engine.session import Session, SessionConfig
from engine.sim.episode import TICK
from engine.sim.world import VERSION, SimOptions, SimWorld


def texts(actions: list[Action]) -> str:
    return " ".join(line for a in actions if isinstance(a, ReplyToPlayer) for line in a.lines)


class Rig:
    def __init__(self, seed: int = 1, options: SimOptions = SimOptions(), assistant: LocalAssistant | None = None,
                 **pilot: object) -> None:
        self.world = SimWorld(seed, options)
        self.records: list[EpisodeRecord] = []
        settings = PilotSettings(sink=self.records.append, **pilot)  # type: ignore[arg-type]
        self.session = Session("Steve", SessionConfig(version=VERSION), assistant=assistant, pilot=settings)
        for event in self.world.join_events():
            self.session.handle(event, 0.0)
        self.t = 0
        self.early: list[Action] = []

    def say(self, text: str) -> list[Action]:
        return self.session.handle(ev.ChatTyped(text), self.t * TICK)

    def tick(self) -> list[Action]:
        self.t += 1
        now = self.t * TICK
        for event in self.world.tick(self.t):
            self.early += self.session.handle(event, now)
        sent = self.early + self.session.tick(now)
        self.early = []
        for event in self.world.apply(sent, self.t):
            self.early += self.session.handle(event, now)
        return sent

    def run(self, ticks: int) -> list[Action]:
        out: list[Action] = []
        for _ in range(ticks):
            out += self.tick()
        return out


def test_autopilot_on_takes_control_and_plays_until_stop() -> None:
    rig = Rig()
    answer = rig.say("!autopilot on")
    assert SetControl(True) in answer and "Autopilot on (mock)" in texts(answer)
    sent = rig.run(400)
    assert sum(isinstance(a, InjectMovement) for a in sent) >= 390      # one movement packet per tick
    assert any(isinstance(a, acts.StartDigging) for a in sent)          # it went for wood
    assert rig.world.count("oak_log") > 0 or rig.world.count("oak_planks") > 0
    assert "milestone" in texts(rig.say("!autopilot status"))
    stopped = rig.say("!stop")
    assert SetControl(False) in stopped and "you have control again" in texts(stopped)
    assert not rig.session.pilot.active
    after = rig.run(40)
    assert not any(isinstance(a, (InjectMovement, acts.StartDigging, acts.FinishDigging)) for a in after)


def test_the_kill_switch_ends_the_autopilot_at_once() -> None:
    rig = Rig()
    rig.say("!autopilot on")
    rig.run(60)
    first = rig.session.handle(ev.SneakPressed(), rig.t * TICK)
    assert first == []
    second = rig.session.handle(ev.SneakPressed(), rig.t * TICK + 0.2)
    assert SetControl(False) in second and "kill switch" in texts(second)
    assert not rig.session.pilot.active
    assert rig.session.pilot.autopilot is not None
    assert rig.session.pilot.autopilot.watchdog.counts.get("kill_switch") == 1
    assert not any(isinstance(a, InjectMovement) for a in rig.run(20))


def test_a_reflex_owns_its_ticks_and_control_stays_with_the_agent_after_it() -> None:
    rig = Rig(2, SimOptions(hazard="lava", push_every=200))
    rig.say("!autopilot on")
    saw_reflex = False
    for _ in range(1200):
        sent = rig.tick()
        assert SetControl(False) not in sent      # the reflex hands back to the autopilot, not the player
        if rig.session.control.reflex_driving:
            saw_reflex = True
            # Kill switch > reflex > autopilot: while the reflex drives, the autopilot does not act.
            assert not any(isinstance(a, (acts.StartDigging, acts.PlaceBlock, acts.CraftItem)) for a in sent)
    assert saw_reflex
    assert rig.session.pilot.active
    assert rig.session.reflex_firings.get("lava", 0) >= 1


def test_goto_replaces_the_autopilot_and_autopilot_replaces_goto() -> None:
    rig = Rig()
    rig.say("!autopilot on")
    rig.run(10)
    pos = rig.session.world.position
    assert pos is not None
    answer = rig.say(f"!goto {int(pos.x) + 3} {int(pos.y)} {int(pos.z)}")
    assert "Going to" in texts(answer) and SetControl(True) not in answer   # control never went back
    assert not rig.session.pilot.active and rig.session.driver is not None
    answer = rig.say("!autopilot on")
    assert rig.session.pilot.active and rig.session.driver is None and SetControl(True) not in answer


def test_providers_switch_per_player_and_unconfigured_ones_are_explained() -> None:
    rig = Rig(unavailable={"api": "no model service is configured"})
    assert "Cannot use the api provider: no model service is configured" in texts(rig.say("!autopilot provider api"))
    assert "Unknown provider" in texts(rig.say("!autopilot provider oracle"))
    assert rig.session.pilot.provider_name == "mock"
    offered = Rig(providers={"mock": lambda _: MockProvider(), "replay": lambda _: MockProvider()})
    assert "will decide with the replay provider" in texts(offered.say("!autopilot provider replay"))
    offered.say("!autopilot provider mock")
    offered.say("!autopilot on")
    offered.run(5)
    autopilot = offered.session.pilot.autopilot
    assert autopilot is not None
    generation = autopilot.generation
    assert "now decides with the replay provider" in texts(offered.say("!autopilot provider replay"))
    assert autopilot.generation > generation       # an answer on its way is for the old provider: stale
    assert offered.session.pilot.provider_name == "replay" and "(replay)" in (offered.session.pilot.progress or "")


def test_episode_logs_are_handed_over_while_running_and_at_the_end() -> None:
    rig = Rig()
    rig.say("!autopilot on")
    rig.run(int(LOG_EVERY / TICK) + 5)
    assert len(rig.records) == 1 and not rig.records[0].final
    assert rig.records[0].decisions and rig.records[0].summary["decisions"] > 0
    rig.say("!autopilot off")
    assert len(rig.records) == 2 and rig.records[-1].final
    final = rig.records[-1]
    assert final.summary["player"] == "Steve" and "milestones" in final.summary
    assert any(e.get("kind") == "autopilot" for e in final.events)


def test_leaving_ends_the_episode() -> None:
    rig = Rig()
    rig.say("!autopilot on")
    rig.run(20)
    rig.session.handle(ev.Disconnected("client left"), rig.t * TICK)
    assert not rig.session.pilot.active
    assert rig.records and rig.records[-1].final


def test_autopilot_refuses_when_the_owner_switched_it_off_or_the_world_is_unknown() -> None:
    rig = Rig(allowed=False)
    assert "switched the autopilot off" in texts(rig.say("!autopilot on"))
    blind = Session("Alex", SessionConfig(version=VERSION))
    assert "position is not known" in texts(blind.handle(ev.ChatTyped("!autopilot on"), 0.0))
    assert "not running" in texts(rig.say("!autopilot off"))


def _eater(food: int, slots: dict[int, str]) -> Session:
    session = Session("Steve", SessionConfig(version=VERSION))
    session.handle(ev.JoinedGame(1, 0, "minecraft:overworld"), 0.0)
    session.handle(ev.HealthChanged(20.0, food, 0.0), 0.0)
    inventory: list[ev.SlotItem | None] = [None] * 46
    for slot, item in slots.items():
        inventory[slot] = ev.SlotItem("minecraft:" + item, 3)
    session.handle(ev.InventoryReplaced(tuple(inventory)), 0.0)
    return session


def test_eat_selects_the_food_eats_it_and_gives_the_slot_back() -> None:
    session = _eater(10, {38: "bread"})
    assert "Eating bread" in texts(session.handle(ev.ChatTyped("!eat"), 0.0))
    first = session.tick(0.05)
    assert first == [SelectHotbar(2), UseHeldItem()]
    ticks = [session.tick(0.05 * (i + 2)) for i in range(40)]
    assert all(t == [] for t in ticks[:30])          # holding the use for the eating time
    session.handle(ev.HealthChanged(20.0, 15, 6.0), 3.0)
    done = session.tick(3.05) + [a for t in ticks[30:] for a in t]
    assert SelectHotbar(0) in done and "Ate bread (food 10 → 15)" in texts(done)
    assert session.item_task is None


def test_eat_swaps_food_from_the_inventory_and_reports_a_refusal() -> None:
    session = _eater(10, {12: "cooked_beef"})
    session.handle(ev.ChatTyped("!eat"), 0.0)
    assert session.tick(0.05) == [acts.SwapToHotbar(12, 0), UseHeldItem()]
    out: list[Action] = []
    for i in range(80):
        out += session.tick(0.05 * (i + 2))
    # The server never fed the player: say so, stop using, swap the stack back.
    assert "did not let you eat" in texts(out)
    assert ReleaseHeldItem() in out and acts.SwapToHotbar(12, 0) in out


def test_eat_explains_why_not() -> None:
    assert "not hungry" in texts(_eater(20, {36: "bread"}).handle(ev.ChatTyped("!eat"), 0.0))
    assert "no food" in texts(_eater(5, {36: "stick"}).handle(ev.ChatTyped("!eat"), 0.0))
    session = _eater(5, {36: "apple"})
    session.handle(ev.ChatTyped("!eat"), 0.0)
    session.tick(0.05)
    stopped = session.handle(ev.ChatTyped("!stop"), 0.1)
    assert ReleaseHeldItem() in stopped and session.item_task is None


def test_the_player_hears_each_milestone_and_gets_control_back_when_the_ladder_is_done() -> None:
    rig = Rig(1)
    rig.say("!autopilot on")
    heard: list[Action] = []
    for _ in range(6000):
        heard += rig.tick()
        if not rig.session.pilot.active:
            break
    said = texts(heard)
    assert "milestone 1/9 reached (wood)" in said and "milestone 9/9 reached (iron pickaxe)" in said
    assert said.count("Autopilot: milestone") == 9
    assert "Autopilot finished" in said and SetControl(False) in heard
    # Handed back idle, the player keeps every reflex the autopilot had (off before it started).
    reflexes = rig.session.control.reflexes
    assert reflexes.enabled == set(reflexes.by_name) and "Reflexes stay on" in said
    assert not rig.session.pilot.active and rig.records[-1].final


def test_with_an_assistant_a_milestone_is_a_notice_whose_stop_button_stops_the_autopilot(
    shared_runtime: AssistantRuntime,
) -> None:
    assistant = shared_runtime.new_assistant()
    rig = Rig(1, assistant=assistant)
    rig.say("!autopilot on")
    notices: list[ReplyToPlayer] = []
    for _ in range(3000):
        notices = [a for a in rig.tick() if isinstance(a, ReplyToPlayer) and "milestone 1/9" in " ".join(a.lines)]
        if notices:
            break
    (notice,) = notices  # said once, with its buttons, and not kept in the inbox
    labels = {b.label: b.command for b in notice.buttons}
    assert list(labels) == ["Autopilot status", "Stop autopilot", "Dismiss"]
    assert assistant.inbox == []
    stopped = rig.session.handle(ev.CommandTyped(labels["Stop autopilot"].removeprefix("/")), rig.t * TICK)
    assert "Autopilot off" in texts(stopped) and not rig.session.pilot.active


def test_the_autopilot_copes_with_no_loaded_world_as_just_after_a_respawn() -> None:
    # Just after a respawn or a join the server has not sent the chunks yet: nothing is known.
    session = Session("Steve", SessionConfig(version=VERSION))
    session.handle(ev.JoinedGame(1, 0, "minecraft:overworld"), 0.0)
    session.handle(ev.HealthChanged(20.0, 20, 5.0), 0.0)
    session.handle(ev.PositionSet(0.5, 64.0, 0.5, 0.0, 0.0, from_server=True), 0.0)
    assert "Autopilot on" in texts(session.handle(ev.ChatTyped("!autopilot on"), 0.0))
    for t in range(1, 200):
        session.tick(t * TICK)                     # deciding with no blocks known must not fail
    assert session.pilot.active
    autopilot = session.pilot.autopilot
    assert autopilot is not None and autopilot.decided


def test_a_reflex_lets_go_of_a_dead_player_and_the_autopilot_respawns_them() -> None:
    rig = Rig(2, SimOptions(hazard="lava", push_every=200))
    rig.say("!autopilot on")
    for _ in range(1200):
        rig.tick()
        if rig.session.control.reflex_driving:
            break
    assert rig.session.control.reflex_driving
    rig.session.handle(ev.HealthChanged(0.0, 10, 0.0), rig.t * TICK)     # died in the lava after all
    rig.t += 1
    after = rig.session.tick(rig.t * TICK)
    assert not rig.session.control.reflex_driving
    assert acts.Respawn() in after and not any(isinstance(a, InjectMovement) for a in after)
    assert SetControl(False) not in after                                   # the autopilot keeps control


def test_stopping_the_autopilot_mid_meal_leaves_the_held_slot_as_the_server_has_it() -> None:
    # sim --hazard lava --after-done, seed 1001: the autopilot finished while the heal reflex was
    # eating; the slot given back never reached the Session's model, so every later meal was
    # "eaten" holding a pickaxe (the server ignored it) and the idle player starved of healing.
    rig = Rig(1)
    rig.say("!autopilot on")
    rig.run(5)
    p = rig.world.player
    p.health, p.food, p.saturation = 9.0, 17, 0.0
    rig.world.player.held = 1
    rig.session.handle(ev.HeldSlotChanged(1), rig.t * TICK)
    sent = rig.session.handle(ev.HealthChanged(9.0, 17, 0.0), rig.t * TICK)
    rig.world.apply(sent, rig.t)
    sent += rig.run(3)
    assert SelectHotbar(8) in sent and UseHeldItem() in sent          # the heal reflex eats the bread
    stopped = rig.say("!autopilot off")
    rig.world.apply(stopped, rig.t)
    assert SelectHotbar(1) in stopped
    assert rig.session.snapshot().player.held_slot == rig.world.player.held == 1


def test_an_eating_reflex_started_by_a_health_packet_sends_its_first_operations() -> None:
    # A heal started from the health packet (not the tick) lost its select-and-use: the engine
    # then counted 34 ticks of "eating" with nothing in use, and the hurt player never healed.
    rig = Rig(1)
    rig.say("!autopilot on")
    rig.run(5)
    rig.world.player.health, rig.world.player.food = 9.0, 17
    sent = rig.session.handle(ev.HealthChanged(9.0, 17, 0.0), rig.t * TICK)
    assert SelectHotbar(8) in sent and UseHeldItem() in sent
    rig.world.apply(sent, rig.t)
    rig.run(40)
    assert rig.world.player.food > 17

"""What clicks each window op takes, and how the inventory shows afterwards that it worked.

Clicks are the ones a player makes: pick a stack up with a left click, right-click
single items into grid slots, put the rest back, shift-click the result. A plan is
made in one go from the mirror as it stands (each click updates the mirror, so the
next click is planned against the state the server will have); a plan that cannot
be made is a reason (a ``str``) and no click goes out.
"""
from __future__ import annotations

from engine.actions import CraftItem, SmeltCollect, SmeltStart, SwapToHotbar
from engine.decision import knowledge
from proxy.windows.inventory_mirror import INVENTORY_SLOTS, MAX_STACK, InventoryMirror, Stack
from proxy.windows.clicks import WindowClicks

WindowOp = SwapToHotbar | CraftItem | SmeltStart | SmeltCollect

# Shapes of the shaped recipes: rows of the grid from its top-left corner; "A" is the
# recipe's first ingredient, "B" its second. One-ingredient, one-item recipes (planks) go
# in the first slot.
SHAPES: dict[str, tuple[str, ...]] = {
    "stick": ("A", "A"),
    "crafting_table": ("AA", "AA"),
    "wooden_pickaxe": ("AAA", " B ", " B "),
    "stone_pickaxe": ("AAA", " B ", " B "),
    "iron_pickaxe": ("AAA", " B ", " B "),
    "diamond_pickaxe": ("AAA", " B ", " B "),
    "torch": ("A", "B"),
    "furnace": ("AAA", "A A", "AAA"),
}


def shape_of(recipe: knowledge.Recipe) -> tuple[str, ...] | None:
    """The grid rows for a recipe, None if we do not know how to lay it out."""
    if recipe.item in SHAPES:
        return SHAPES[recipe.item]
    if recipe.shape:                     # a goal's recipe, laid out as minecraft-data gives it
        return recipe.shape
    if len(recipe.needs) == 1 and recipe.needs[0][1] == 1:
        return ("A",)
    letters = "".join(chr(65 + i) * n for i, (_, n) in enumerate(recipe.needs))
    if len(letters) <= 9:                # shapeless: any slots will do, row by row
        width = 2 if len(letters) <= 4 else 3
        return tuple(letters[i:i + width] for i in range(0, len(letters), width))
    return None


def _accepts(ingredient: str, item: str) -> bool:
    """Whether a recipe slot naming ``ingredient`` (an item or a tag such as "#planks") takes ``item``."""
    return item in knowledge.members(ingredient)


def plan(op: WindowOp, mirror: InventoryMirror, clicks: WindowClicks) -> list[bytes] | str:
    """The op's clicks, in the window in use (the opened one, else the inventory)."""
    if isinstance(op, SwapToHotbar):
        return [clicks.click(0, op.slot, op.hotbar, 2)]
    if isinstance(op, CraftItem):
        return _craft(op, mirror, clicks)
    if isinstance(op, SmeltStart):
        targets = [(0, op.item, op.count)] + ([(1, op.fuel, op.fuel_count)] if op.fuel_count else [])
        return _fill(targets, mirror, clicks)
    if isinstance(op, SmeltCollect):
        return [clicks.click(mirror.window_id, 2, 0, 1)] if mirror.get(2) is not None else "nothing to collect"
    raise TypeError(op)


def _craft(op: CraftItem, mirror: InventoryMirror, clicks: WindowClicks) -> list[bytes] | str:
    recipe = knowledge.RECIPES[op.item]
    shape = shape_of(recipe)
    assert shape is not None
    width = 3 if mirror.window is not None else 2
    if len(shape) > width or any(len(row) > width for row in shape):
        return f"{op.item} does not fit a {width}x{width} grid"
    if any(mirror.get(g) is not None for g in range(1, 1 + width * width)):
        return "the crafting grid is not empty"
    times = max(1, min(op.times, MAX_STACK))
    needs = recipe.needs
    targets = [(1 + r * width + c, needs[ord(ch) - ord("A")][0], times)
               for r, row in enumerate(shape) for c, ch in enumerate(row) if ch != " "]
    out = _fill(targets, mirror, clicks)
    if isinstance(out, str):
        return out
    # Until 1.11 the server never sends the result slot (the client works it out); we do too.
    mirror.put(mirror.window_id, 0, Stack(op.item, recipe.count))
    out.append(clicks.click(mirror.window_id, 0, 0, 1, crafting=True))  # shift-click: crafts while the grid allows
    return out


def _fill(targets: list[tuple[int, str, int]], mirror: InventoryMirror, clicks: WindowClicks) -> list[bytes] | str:
    """Clicks that put ``n`` of an ingredient (an item or a tag) into each target slot.

    Each target gets one kind of item; stacks of a kind are picked up in slot order,
    dealt out (a left click puts the whole cursor down, a right click one item), and
    what is left goes back where it came from.
    """
    window = mirror.window_id
    first = mirror.window.size if mirror.window is not None else 9
    sources = [(s, st) for s in range(first, first + INVENTORY_SLOTS) if (st := mirror.get(s)) is not None]
    left: dict[tuple[str, int], int] = {}
    for _, st in sources:
        left[st.kind] = left.get(st.kind, 0) + st.count
    wanted_by_kind: dict[tuple[str, int], list[list[int]]] = {}
    for slot, ingredient, n in targets:
        there = mirror.get(slot)
        if there is not None and (not _accepts(ingredient, there.item) or there.count + n > MAX_STACK):
            return f"slot {slot} holds {there.item}"
        kinds = [k for k in left if _accepts(ingredient, k[0]) and left[k] >= n
                 and (there is None or there.kind == k)]
        if not kinds:
            return f"missing {n} {ingredient}"
        kind = max(kinds, key=lambda k: left[k])  # ties: the first found
        left[kind] -= n
        wanted_by_kind.setdefault(kind, []).append([slot, n])
    out: list[bytes] = []
    for kind, wanted in wanted_by_kind.items():
        for source, stack in sources:
            if not any(need for _, need in wanted):
                break
            if stack.kind != kind:
                continue
            out.append(clicks.click(window, source, 0, 0))  # pick the stack up
            for entry in wanted:
                slot, need = entry
                have = mirror.cursor.count if mirror.cursor is not None else 0
                if not need or not have:
                    continue
                if have <= need:
                    out.append(clicks.click(window, slot, 0, 0))  # put the whole cursor down
                else:
                    out.extend(clicks.click(window, slot, 1, 0) for _ in range(need))
                entry[1] = need - min(have, need)
            if mirror.cursor is not None:
                out.append(clicks.click(window, source, 0, 0))  # the rest goes back
    return out


def verdict(op: WindowOp, before: dict[int, Stack], after: dict[int, Stack]) -> tuple[bool, str]:
    """Whether the inventory ``after`` the op shows its effect on the inventory ``before`` it."""
    if isinstance(op, SwapToHotbar):
        moved = before.get(op.slot), before.get(36 + op.hotbar)
        now = after.get(36 + op.hotbar), after.get(op.slot)
        same = all((a.kind, a.count) == (b.kind, b.count) if a and b else a is b for a, b in zip(moved, now))
        return (True, "swapped") if same else (False, "the slots did not swap")
    if isinstance(op, CraftItem):
        recipe = knowledge.RECIPES[op.item]
        made = _count(op.item, after) - _count(op.item, before)
        want = recipe.count * max(1, min(op.times, MAX_STACK))
        return (made >= want, f"crafted {made} {op.item}" + ("" if made >= want else f" of {want}"))
    if isinstance(op, SmeltStart):
        used = _count(op.item, before) - _count(op.item, after)
        ok = used >= op.count
        return ok, f"put {used} {op.item} in the furnace" + ("" if ok else f" of {op.count}")
    if isinstance(op, SmeltCollect):
        gained = sum(st.count for st in after.values()) - sum(st.count for st in before.values())
        return (gained > 0, f"collected {gained} items" if gained > 0 else "collected nothing")
    raise TypeError(op)


def _count(ingredient: str, slots: dict[int, Stack]) -> int:
    return sum(st.count for slot, st in slots.items() if 9 <= slot <= 45 and _accepts(ingredient, st.item))

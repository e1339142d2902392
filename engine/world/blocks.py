"""Blocks: the per-version state table and the per-session block store.

How this works: ``BlockTable.for_version("1.18.2")`` expands the pooled data in
``data/blocks.json`` (written by ``scripts/gen_blocks.py`` from minecraft-data)
into numpy arrays indexed by block-state id: a flags word and the top of the
collision shape. ``BlockStore`` holds the state ids the server sent, 4096 per
16x16x16 section keyed by section coordinates ``(x >> 4, y >> 4, z >> 4)``, in
the order chunk packets use (index ``(y & 15) << 8 | (z & 15) << 4 | (x & 15)``).
Blocks in sections the server never sent are unknown (``None``), which callers
treat differently from air.

A section is kept in one of three forms, chosen by how many states it holds, so
memory follows the world's variety, not its volume (a player at view distance 10
holds ~10,000 sections): one state, a shared read-only array (air and stone seas,
no memory each); up to 256 states, a ``PackedSection``: a palette and 1, 2, 4 or
8 bits per block (512 B to 4 KiB instead of 8 KiB; real terrain is mostly 4
bits); more, a plain array. ``section(key)`` hands out a full read-only array
as before, decoding a packed section on demand (~20 us) and keeping the last
``DECODED_CACHE`` decoded ones, since the finders and the planner ask for the
same few sections around the player over and over. A column can also come undecoded
(``set_lazy_column``): it counts as loaded at once and is decoded on its first read.

The store knows nothing about versions: it keeps ids. Every change bumps
``revision`` and the section's own revision, which is how views over the store
(``engine.motion.grid.Terrain``, ``engine.decision.perception.BlockFinder``)
know what to forget. A view that syncs often asks ``changed_since(revision)``
for the sections touched since it last looked (a short journal; None when the
view fell too far behind, and then it checks everything), so its cost follows
what changed, not what is loaded. ``layout`` counts only loads and unloads: a
section coming or going, never a block change, for views of which sections
exist (a finder's list of sections near a point).

Bookkeeping is per column where it can be, since a player holds ~450 columns of
~24 sections: a column's section ys are one shared frozenset (most columns have
the same ys), and a whole column's load or unload stamps one revision for all of
its sections; only a section touched on its own (a block change, a section
update) keeps a revision of its own until its column is next loaded or unloaded.
An unloaded column's revisions are forgotten (its sections read 0, as never
loaded): a view that cached a revision sees it changed, and the store does not
grow with every column a player has passed.
"""
from __future__ import annotations

import enum
import functools
import json
from collections.abc import Collection, Iterable, Iterator
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from engine.world.packed import SECTION_VOLUME as SECTION_VOLUME
from engine.world.packed import PackedSection as PackedSection
from engine.world.packed import StateArray as StateArray

DATA = Path(__file__).resolve().parent / "data" / "blocks.json"
# Section touches the journal keeps for ``changed_since`` (it holds up to twice as many
# before it drops the oldest): a tick's digging and a few chunk columns, not a whole join.
JOURNAL_LENGTH = 1024
# Decoded packed sections kept for ``section()``: the 27 around the player and a search's
# neighbourhood, at 8 KiB each.
DECODED_CACHE = 32
# Marks blocks of a section the store holds only in part (a block change arrived
# for a section no chunk packet filled). Larger than any state id of any version.
UNKNOWN_STATE = 0xFFFF


class BlockFlag(enum.IntFlag):
    SOLID = 1        # has a collision shape
    LIQUID = 2
    WATER = 4        # water, waterlogged states, underwater plants
    LAVA = 8
    FIRE = 16
    CLIMBABLE = 32
    DAMAGING = 64    # cactus, magma, berry bush, campfire, wither rose, dripstone
    AVOID = 128      # cobweb, portals, powder snow
    AIR = 256
    UNKNOWN = 512    # not a block of this version (or not known to the store)


@functools.cache
def _document() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    for name, bit in document["flags"].items():
        if BlockFlag[name.upper()].value != bit:
            raise ValueError(f"{DATA}: flag {name} is {bit}, code expects {BlockFlag[name.upper()].value}")
    return document


class BlockTable:
    """Block-state id → name, flags and collision top, for one protocol version."""

    def __init__(self, version: str, names: list[str], name_index: npt.NDArray[np.uint16],
                 flags: npt.NDArray[np.uint16], tops: npt.NDArray[np.float64],
                 defaults: dict[str, int], ranges: dict[str, range]) -> None:
        self.version = version
        self._names = names
        self.name_index = name_index
        self.flags_array = flags
        self.top_array = tops
        self._defaults = defaults
        self._ranges = ranges

    @staticmethod
    def versions() -> tuple[str, ...]:
        return tuple(_document()["versions"])

    @staticmethod
    def for_version(version: str) -> "BlockTable":
        """The table of a version, built once per process and shared (it is never mutated)."""
        return _table(version)

    @staticmethod
    def _build(version: str) -> "BlockTable":
        document = _document()
        try:
            entry = document["versions"][version]
        except KeyError:
            raise KeyError(f"no block table for version {version!r}") from None
        names: list[str] = document["names"]
        heights: list[float] = document["heights"]
        patterns: list[list[list[int]]] = document["patterns"]
        pool: list[list[int]] = document["blocks"]
        size = entry["states"]
        name_index = np.zeros(size, dtype=np.uint16)
        flags = np.zeros(size, dtype=np.uint16)
        tops = np.zeros(size, dtype=np.float64)
        defaults: dict[str, int] = {}
        ranges: dict[str, range] = {}
        state = 0
        for first, length in document["layouts"][entry["layout"]]:
            for name_id, pattern_id, default in pool[first:first + length]:
                start = state
                for flag_bits, height_id, run in patterns[pattern_id]:
                    flags[state:state + run] = flag_bits
                    tops[state:state + run] = heights[height_id]
                    state += run
                name_index[start:state] = name_id
                name = names[name_id]
                if name and name not in defaults:
                    defaults[name] = start + default
                    ranges[name] = range(start, state)
        if state != size:
            raise ValueError(f"{DATA}: version {version} spans {state} states, expected {size}")
        return BlockTable(version, names, name_index, flags, tops, defaults, ranges)

    @property
    def size(self) -> int:
        return len(self.flags_array)

    def flags(self, state: int) -> BlockFlag:
        if 0 <= state < len(self.flags_array):
            return BlockFlag(int(self.flags_array[state]))
        return BlockFlag.UNKNOWN | BlockFlag.SOLID

    def top(self, state: int) -> float:
        """Top of the collision shape in block units (0 = no collision, 1.5 = fence)."""
        if 0 <= state < len(self.top_array):
            return float(self.top_array[state])
        return 1.0

    def name(self, state: int) -> str | None:
        if 0 <= state < len(self.name_index):
            return self._names[int(self.name_index[state])] or None
        return None

    def state_for(self, name: str) -> int:
        """The default state of a block, by registry name (``minecraft:`` optional)."""
        return self._defaults[name.removeprefix("minecraft:")]

    def names(self) -> frozenset[str]:
        return frozenset(self._defaults)

    def states_of(self, name: str) -> range:
        return self._ranges[name.removeprefix("minecraft:")]

    def has(self, state: int, flag: BlockFlag) -> bool:
        return bool(self.flags(state) & flag)


@functools.cache
def _table(version: str) -> BlockTable:
    return BlockTable._build(version)


SectionKey = tuple[int, int, int]


class SectionSource(Protocol):
    """A chunk column not decoded yet (the proxy's ``LazyColumn``): the section ys it holds,
    the bytes it keeps, and its ``(sy, states)`` pairs on ``decode()`` (none if it turns
    out damaged)."""

    @property
    def ys(self) -> tuple[int, ...]: ...

    @property
    def nbytes(self) -> int: ...

    def decode(self) -> Iterable[tuple[int, npt.ArrayLike]]: ...


class BlockStore:
    """State ids per loaded section. Mutated only by the ``set_*``/``unload``/``clear`` methods."""

    def __init__(self, dtype: type[np.unsignedinteger[Any]] = np.uint16) -> None:
        # uint16 holds every state id up to 26.1 (~30k); pass np.uint32 if that stops holding.
        self.dtype = dtype
        # A shared uniform array, a PackedSection, or a private array of > 256 states.
        self._sections: dict[SectionKey, StateArray | PackedSection] = {}
        self._decoded: dict[SectionKey, StateArray] = {}    # recent decodes, oldest first
        self._columns: dict[tuple[int, int], frozenset[int]] = {}
        self._ys_forms: dict[frozenset[int], frozenset[int]] = {}   # one shared set per distinct ys
        # Columns loaded but not decoded: their sections are listed in _columns, not in
        # _sections, until something reads one (``_materialize``).
        self._lazy: dict[tuple[int, int], SectionSource] = {}
        # A whole column's last load (see the module's docstring), and since then the
        # sections touched on their own, by column: {(cx, cz): {sy: revision}}.
        self._column_revisions: dict[tuple[int, int], int] = {}
        self._section_revisions: dict[tuple[int, int], dict[int, int]] = {}
        self.revision = 0
        self.layout = 0                 # bumped when a section is loaded or forgotten
        self._journal: list[SectionKey] = []    # the key each revision touched, oldest first
        self._journal_base = 0                  # the revision before _journal[0]
        # One shared read-only array per state for single-state sections (air, stone
        # seas): most sections of a world, at no memory each. Writes copy first.
        self._uniform: dict[int, npt.NDArray[np.unsignedinteger[Any]]] = {}

    def _touch(self, key: SectionKey) -> None:
        self.revision += 1
        column = (key[0], key[2])
        own = self._section_revisions.get(column)
        if own is None:
            own = self._section_revisions[column] = {}
        own[key[1]] = self.revision
        self._journal.append(key)
        self._trim_journal()

    def _touch_column(self, cx: int, cz: int, ys: Collection[int], loaded: bool) -> None:
        """Every section of a column loaded (``loaded``) or unloaded at once: one journal entry
        and one revision each, as ``_touch`` would give, but one stamp for the column."""
        journal = self._journal
        before = self.revision
        own = self._section_revisions.pop((cx, cz), None)
        # Sections with a revision of their own outside ``ys`` (lost in decoding) read 0 from
        # now on: the journal names them too, as it names everything whose revision changes.
        for sy in (*ys, *(sy for sy in own if sy not in ys)) if own else ys:
            self.revision += 1
            journal.append((cx, sy, cz))
        if loaded:
            self._column_revisions[(cx, cz)] = self.revision
        else:
            self._column_revisions.pop((cx, cz), None)
        if self.revision != before:
            self._trim_journal()

    def _trim_journal(self) -> None:
        journal = self._journal
        if len(journal) > 2 * JOURNAL_LENGTH:
            drop = len(journal) - JOURNAL_LENGTH
            del journal[:drop]
            self._journal_base += drop

    def _ys(self, ys: Iterable[int]) -> frozenset[int]:
        form = frozenset(ys)
        return self._ys_forms.setdefault(form, form)

    def _add_y(self, cx: int, cz: int, sy: int) -> None:
        ys = self._columns.get((cx, cz))
        if ys is None or sy not in ys:
            self._columns[(cx, cz)] = self._ys((sy,) if ys is None else (*ys, sy))

    def changed_since(self, revision: int) -> list[SectionKey] | None:
        """The sections touched (loaded, edited, forgotten) after ``revision``, oldest first and
        possibly repeated; None if the journal no longer reaches back that far."""
        start = revision - self._journal_base
        if start < 0:
            return None
        return self._journal[start:]

    def set_section(self, cx: int, sy: int, cz: int, states: npt.ArrayLike) -> None:
        """Replace a whole section with 4096 state ids in chunk order (y, z, x)."""
        array = np.asarray(states)
        if array.size != SECTION_VOLUME:
            raise ValueError(f"a section holds {SECTION_VOLUME} blocks, got {array.size}")
        key = (cx, sy, cz)
        if (cx, cz) in self._lazy:
            self._materialize((cx, cz))  # a partial update of a column not decoded yet
        if key not in self._sections:
            self.layout += 1
        self._decoded.pop(key, None)
        self._sections[key] = self._stored(array)
        self._add_y(cx, cz, sy)
        self._touch(key)

    def _stored(self, array: npt.NDArray[Any]) -> StateArray | PackedSection:
        flat = array.reshape(SECTION_VOLUME)
        first = int(flat[0])
        # The chunk decoder hands a single-state section over as a stride-0 view (one value
        # broadcast): uniform without scanning it; most sections of a world are (air, stone).
        if flat.strides == (0,) or int(flat.min()) == first == int(flat.max()):
            return self._shared(first)
        packed = PackedSection.of(flat, self.dtype)
        return flat.astype(self.dtype, copy=True) if packed is None else packed

    def _shared(self, state: int) -> npt.NDArray[np.unsignedinteger[Any]]:
        shared = self._uniform.get(state)
        if shared is None:
            shared = np.full(SECTION_VOLUME, state, dtype=self.dtype)
            shared.flags.writeable = False
            self._uniform[state] = shared
        return shared

    def set_column(self, cx: int, cz: int, sections: Iterable[tuple[int, npt.ArrayLike]], replace: bool) -> None:
        """A decoded chunk column: ``(sy, states)`` pairs. ``replace``: the column is whole
        (a full chunk packet), so sections it leaves out are forgotten first."""
        if not replace:
            for sy, states in sections:
                self.set_section(cx, sy, cz, states)
            return
        arrays = [(sy, np.asarray(states)) for sy, states in sections]
        for _, array in arrays:
            if array.size != SECTION_VOLUME:
                raise ValueError(f"a section holds {SECTION_VOLUME} blocks, got {array.size}")
        self.unload_chunk(cx, cz)
        ys = [sy for sy, _ in arrays]
        for sy, array in arrays:
            self._sections[(cx, sy, cz)] = self._stored(array)
        if ys:
            self.layout += len(set(ys))
            self._columns[(cx, cz)] = self._ys(ys)
            self._touch_column(cx, cz, ys, loaded=True)

    def set_lazy_column(self, cx: int, cz: int, source: SectionSource, replace: bool) -> None:
        """A column to decode when one of its sections is first read. It counts as loaded at
        once (``layout``, the journal, ``has_section``, ``keys_near``), as ``set_column``
        would make it; only the decoding waits. A partial column (``replace`` False) is
        applied now, onto what is there."""
        if not replace:
            self.set_column(cx, cz, source.decode(), replace=False)
            return
        self.unload_chunk(cx, cz)
        ys = self._ys(source.ys)
        if not ys:
            return
        self._lazy[(cx, cz)] = source
        self._columns[(cx, cz)] = ys
        self.layout += len(ys)
        self._touch_column(cx, cz, ys, loaded=True)

    def _materialize(self, column: tuple[int, int]) -> None:
        # Decoding adds nothing new (no revision, no layout): the sections were loaded when
        # the column came. Sections a damaged column fails to give become unknown.
        source = self._lazy.pop(column)
        cx, cz = column
        ys = self._columns.get(column, frozenset())
        for sy, states in source.decode():
            if sy in ys:
                self._sections[(cx, sy, cz)] = self._stored(np.asarray(states))
        lost = [sy for sy in ys if (cx, sy, cz) not in self._sections]
        if lost:
            self._columns[column] = self._ys(ys.difference(lost))
        for sy in lost:
            self.layout += 1
            self._touch((cx, sy, cz))

    @property
    def lazy_columns(self) -> int:
        """Columns loaded and not decoded yet."""
        return len(self._lazy)

    def fill_section(self, cx: int, sy: int, cz: int, state: int) -> None:
        """A section of one state (single-valued palettes; empty sections of 1.8 chunk data)."""
        self.set_section(cx, sy, cz, np.full(SECTION_VOLUME, state, dtype=self.dtype))

    def set_block(self, x: int, y: int, z: int, state: int) -> None:
        key = (x >> 4, y >> 4, z >> 4)
        index = ((y & 15) << 8) | ((z & 15) << 4) | (x & 15)
        section = self._sections.get(key)
        if section is None and (key[0], key[2]) in self._lazy:
            self._materialize((key[0], key[2]))
            section = self._sections.get(key)
        self._decoded.pop(key, None)
        if section is None:
            # A change for a section no chunk packet filled: keep this one block and
            # leave the rest unknown rather than guessing air.
            section = PackedSection(np.array([UNKNOWN_STATE], dtype=self.dtype),
                                    np.zeros(SECTION_VOLUME, dtype=np.uint8))
            self._sections[key] = section
            self._add_y(key[0], key[2], key[1])
            self.layout += 1
        elif isinstance(section, np.ndarray) and not section.flags.writeable:
            # A shared single-state section: give this one its own (packed) copy.
            section = PackedSection(section[:1].copy(), np.zeros(SECTION_VOLUME, dtype=np.uint8))
            self._sections[key] = section
        if isinstance(section, PackedSection):
            if not section.set(index, state):
                full = section.decode()       # a 257th state: keep this one as a plain array
                full[index] = state
                self._sections[key] = full
        else:
            section[index] = state
        self._touch(key)

    def get(self, x: int, y: int, z: int) -> int | None:
        section = self._sections.get((x >> 4, y >> 4, z >> 4))
        if section is None:
            if (x >> 4, z >> 4) not in self._lazy:
                return None
            self._materialize((x >> 4, z >> 4))
            return self.get(x, y, z)
        index = ((y & 15) << 8) | ((z & 15) << 4) | (x & 15)
        state = section.get(index) if isinstance(section, PackedSection) else int(section[index])
        return None if state == UNKNOWN_STATE else state

    def section(self, key: SectionKey) -> StateArray | None:
        """The 4096 state ids of a section as a read-only array, or None if not loaded.
        A packed section is decoded (and the decode kept for the next few asks)."""
        section = self._sections.get(key)
        if section is None and (key[0], key[2]) in self._lazy:
            self._materialize((key[0], key[2]))
            section = self._sections.get(key)
        if section is None or isinstance(section, np.ndarray):
            return section
        decoded = self._decoded.get(key)
        if decoded is None:
            decoded = section.decode()
            decoded.flags.writeable = False
            if len(self._decoded) >= DECODED_CACHE:
                del self._decoded[next(iter(self._decoded))]
            self._decoded[key] = decoded
        return decoded

    def has_section(self, key: SectionKey) -> bool:
        """Whether a section is loaded, without decoding it."""
        if key in self._sections:
            return True
        column = (key[0], key[2])
        return column in self._lazy and key[1] in self._columns[column]

    def section_revision(self, key: SectionKey) -> int:
        """Revision of the last load or edit of a section, or of its own unload; 0 if never
        touched or its column was unloaded. Only equality with an earlier answer means
        anything: a changed section never reads a value it read before."""
        column = (key[0], key[2])
        own = self._section_revisions.get(column)
        if own is not None:
            found = own.get(key[1])
            if found is not None:
                return found
        ys = self._columns.get(column)
        return self._column_revisions.get(column, 0) if ys is not None and key[1] in ys else 0

    def keep_near(self, cx: int, cz: int, radius: int) -> None:
        """Forget columns farther than ``radius`` chunks from (cx, cz)."""
        for column in [c for c in self._columns if max(abs(c[0] - cx), abs(c[1] - cz)) > radius]:
            self.unload_chunk(*column)

    def unload_chunk(self, cx: int, cz: int) -> None:
        self._lazy.pop((cx, cz), None)
        ys = self._columns.pop((cx, cz), frozenset())
        for sy in ys:
            key = (cx, sy, cz)
            self._sections.pop(key, None)
            self._decoded.pop(key, None)
        self.layout += len(ys)
        self._touch_column(cx, cz, ys, loaded=False)

    def clear(self) -> None:
        """Forget everything (dimension change, respawn into another world)."""
        if self._sections or self._lazy:
            self.layout += 1
        for (cx, cz), ys in list(self._columns.items()):
            self._touch_column(cx, cz, ys, loaded=False)
        self._sections.clear()
        self._lazy.clear()
        self._decoded.clear()
        self._columns.clear()
        self._section_revisions.clear()
        self._column_revisions.clear()

    def __len__(self) -> int:
        return len(self._sections) + sum(len(self._columns[c]) for c in self._lazy)

    def keys(self) -> Iterator[SectionKey]:
        """Every loaded section, decoded or not (without decoding)."""
        yield from self._sections
        for cx, cz in list(self._lazy):
            for sy in self._columns[(cx, cz)]:
                yield cx, sy, cz

    def keys_near(self, cx: int, sy: int, cz: int, radius: int) -> list[SectionKey]:
        """Loaded sections at most ``radius`` sections from (cx, sy, cz) along every axis, in
        (x, z, y) order: the cost follows the size of the box, not how much is loaded."""
        found: list[SectionKey] = []
        columns = self._columns
        ys = range(sy - radius, sy + radius + 1)
        for x in range(cx - radius, cx + radius + 1):
            for z in range(cz - radius, cz + radius + 1):
                loaded = columns.get((x, z))
                if loaded:
                    found += [(x, y, z) for y in ys if y in loaded]
        return found

    def memory_bytes(self) -> int:
        """Bytes of block data held: each shared single-state array once, packed sections,
        plain arrays and the cache of decoded sections."""
        shared: dict[int, int] = {}
        held = 0
        for section in self._sections.values():
            if isinstance(section, PackedSection):
                held += section.nbytes
            elif section.flags.writeable:
                held += int(section.nbytes)
            else:
                shared[id(section)] = int(section.nbytes)
        held += sum(source.nbytes for source in self._lazy.values())
        return held + sum(shared.values()) + sum(int(a.nbytes) for a in self._decoded.values())

    def section_bytes(self, key: SectionKey) -> int:
        """Bytes a section holds on its own (0 for a shared single-state section, one not
        decoded yet or none)."""
        section = self._sections.get(key)
        if section is None:
            return 0
        if isinstance(section, PackedSection):
            return section.nbytes
        return int(section.nbytes) if section.flags.writeable else 0

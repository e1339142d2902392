"""How the chunk data buffer changed by protocol number, and the dimension shapes it depends on.

The buffer's layout is not in minecraft-data, so ``FORMATS`` is the one table of how
it changed; ``chunk_format`` picks a version's entry. The section count of a column
depends on the dimension (1.17+), hence the vanilla dimension types kept here.
"""
from __future__ import annotations

import attrs

from proxy.protocol.errors import LayoutError

MAX_SECTIONS = 256  # 4096 blocks of height: more than any dimension type allows


@attrs.frozen
class ChunkFormat:
    """How the chunk data buffer is laid out (from ``since`` protocol on)."""

    since: int
    family: str
    raw_u16: bool = False          # 1.8: 4096 little-endian u16 (id << 4 | meta) per section
    spanning: bool = True          # a packed value may straddle two longs (before 1.16)
    direct_palette_length: bool = False  # a dummy palette length 0 precedes direct data (1.9-1.12)
    light_in_data: bool = False    # block light (+ sky light) follow each section (before 1.14)
    block_count: bool = False      # a short non-air count opens each section (1.14+)
    biome_bytes: int = 0           # biomes after the sections of a full column
    containers: bool = False       # 1.18+: every section, block then biome paletted containers
    size_prefix: bool = True       # long arrays carry their length (before 1.21.5)
    fluid_count: bool = False      # a second short (fluid count) after the block count (26.1)
    dimension_mask: bool = False   # the bitmask covers the dimension's sections from min_y (1.17)
    default_min_y: int = 0
    default_height: int = 256


FORMATS: tuple[ChunkFormat, ...] = (
    ChunkFormat(47, "1.8", raw_u16=True, biome_bytes=256),
    ChunkFormat(107, "1.9", direct_palette_length=True, light_in_data=True, biome_bytes=256),
    ChunkFormat(393, "1.13", light_in_data=True, biome_bytes=1024),
    ChunkFormat(477, "1.14", block_count=True, biome_bytes=1024),
    ChunkFormat(573, "1.15", block_count=True),
    ChunkFormat(735, "1.16", block_count=True, spanning=False),
    ChunkFormat(755, "1.17", block_count=True, spanning=False, dimension_mask=True),
    ChunkFormat(757, "1.18", block_count=True, spanning=False, containers=True, default_min_y=-64,
                default_height=384),
    ChunkFormat(770, "1.21.5", block_count=True, spanning=False, containers=True, size_prefix=False,
                default_min_y=-64, default_height=384),
    ChunkFormat(775, "26.1", block_count=True, spanning=False, containers=True, size_prefix=False,
                fluid_count=True, default_min_y=-64, default_height=384),
)

# Vanilla dimension types, for servers whose registry we did not see (1.20.2+ sends it
# during configuration, and may leave out entries the client knows).
VANILLA_DIMENSIONS: dict[str, tuple[int, int, bool]] = {
    "minecraft:overworld": (-64, 384, True),
    "minecraft:overworld_caves": (-64, 384, True),
    "minecraft:the_nether": (0, 256, False),
    "minecraft:the_end": (0, 256, False),
}
# A 1.18+ column carries every section, so its section count names the height.
MIN_Y_BY_SECTIONS = {24: -64, 16: 0}


def chunk_format(protocol: int) -> ChunkFormat:
    found = None
    for fmt in FORMATS:
        if protocol >= fmt.since:
            found = fmt
    if found is None:
        raise LayoutError(f"no chunk format for protocol {protocol}")
    return found

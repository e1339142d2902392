"""The generated item names (engine/modules/data/item_names.json.gz) cover a release read from a
commit of the minecraft-data repository with that commit's own items, not its base's."""
from __future__ import annotations

from engine.modules.items import ItemNames


def test_26_2_names_its_own_new_items_in_english_and_chinese() -> None:
    names = ItemNames.builtin()
    new, old = names.table("26.2"), names.table("26.1")
    assert [i.id for i in new.lookup("sulfur")] == ["minecraft:sulfur"]
    assert [i.id for i in new.lookup("bucket of sulfur cube")] == ["minecraft:sulfur_cube_bucket"]
    assert [i.id for i in new.lookup("朱砂砖")] == ["minecraft:cinnabar_bricks"]
    spike = new.get("minecraft:sulfur_spike")
    assert spike is not None and (spike.display("en"), spike.display("zh")) == ("Sulfur Spike", "硫黄尖锥")
    # 26.1 has none of them; a 26.1 player asking is told where it exists.
    assert old.lookup("sulfur") == () and old.get("minecraft:sulfur_spike") is None
    assert [(i.id, first, last) for i, first, last in old.elsewhere("sulfur spike")] == [
        ("minecraft:sulfur_spike", "26.2", "26.2")]
    # Nothing 26.1 has is lost on the way.
    assert all(new.get(info.id) is not None for info in old.search("oak log") + old.search("crafter"))

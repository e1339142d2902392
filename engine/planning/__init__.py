"""Planning: how to get an item from what the player carries, over minecraft-data's recipes.

``sources`` (what minecraft-data does not say: furnace recipes, mob loot, dimensions) →
``book`` (one version family's recipes and block drops, from ``data/recipes.json``, written
by scripts/gen_recipes.py) → ``planner`` (the cheapest way to every item, plans, reasons).
Pure: no decision-layer import; ``engine.decision.knowledge`` says what the agent can do.
"""

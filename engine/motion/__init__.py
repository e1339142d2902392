"""Motion: our own pathfinder and a vanilla-legal stepper (the seed's Baritone role).

``cells`` (block state → cell class) → ``nodes`` (per-section node tables) →
``grid.Terrain`` (the view over a ``BlockStore``) → ``astar.find_path`` with
``goals`` → ``planner.PathPlanner`` (keeps a path current) → ``stepper.Stepper``
(one packet per tick through ``physics``) → ``navigator.Navigator`` (planner and
stepper together). ``checker`` replays packets against the vanilla rules;
``worlds`` and ``testing`` build worlds and drive them headlessly.
"""

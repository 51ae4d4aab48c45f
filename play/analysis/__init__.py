"""Monte-Carlo analysis of a scenario's random procedures (issue #22), Qt-free.

- :mod:`play.analysis.plan` — :class:`RandomStep`, one random procedure as the engine action
  that plays it; each plug-in lists the steps its scenarios use (``SystemPlugin.analysis``);
- :mod:`play.analysis.trial` — the pure per-seed function ``run_seed(bundle, scenario, seed)``
  and the playtest script that replays one seed;
- :mod:`play.analysis.executor` — the one small executor interface (serial, process pool);
- :mod:`play.analysis.stats` — means, percentiles and paired differences;
- :mod:`play.analysis.summary` — the distributions per group and zone, as data, text and JSON;
- :mod:`play.analysis.coverage` — LOS coverage of a side's set-up, with the fast all-pairs engine.

Shared code: what to count comes from the game's state and the events the plug-ins emit, never
from a system's name. See docs/analysis.md.
"""

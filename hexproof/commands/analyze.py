"""``hexproof analyze PATH --scenario ID --seeds N``: Monte-Carlo distributions of a scenario's
random procedures (play/analysis/, docs/analysis.md).

Exit 0 done, 2 unreadable input (bundle, scenario, arguments), 1 a seed failed in the engine
(reported with its seed, so ``--seed K`` replays it).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from hexproof.commands import COMMANDS

NAME = "analyze"
HELP = COMMANDS[NAME]  # one source: `hexproof --help` lists it without importing this module


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", help="bundle folder (or a file inside it)")
    p.add_argument("--scenario", help="scenario id (with --compare: not needed)")
    p.add_argument("--seeds", type=int, default=100, help="how many seeds (default 100)")
    p.add_argument("--first-seed", type=int, default=1, help="the first seed (default 1): seeds are FIRST..FIRST+N-1")
    p.add_argument("--turns", type=int, default=None,
                   help="play the scenario's first N turns, through the end of the Nth (default: up to the last "
                        "turn a random step of the plug-in needs)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("--output", help="write the report to this file instead of standard output")
    p.add_argument("--plots", metavar="DIR", help="also write the landing heatmap and histograms (PNG) here")
    p.add_argument("--compare", nargs=2, metavar=("VARIANT_A", "VARIANT_B"),
                   help="two scenario ids on the same seeds: each one's figures and B - A with its 95%% CI")
    p.add_argument("--seed", type=int, help="replay one seed: its units' fate, and --script/--log to read it")
    p.add_argument("--script", help="with --seed: write the playtest script that replays it (YAML)")
    p.add_argument("--log", help="with --seed: write its event log (JSON, as `hexproof playtest --log`)")
    p.add_argument("--quiet", action="store_true", help="no progress bar on stderr")


def _fail(msg: str) -> int:
    print(f"hexproof analyze: {msg}", file=sys.stderr)
    return 2


def _progress(quiet: bool):  # type: ignore[no-untyped-def]
    from hexproof.commands.proof import progress_printer

    report = progress_printer(quiet, "analyze")
    return lambda done, total: report(done, total, f"{done} seeds")


def run(args: argparse.Namespace) -> int:
    from hexproof.commands.common import load_or_report
    from model.formats.yamlio import atomic_write_text
    from play.analysis import summary
    from play.analysis.executor import executor_for
    from play.analysis.trial import gaps_for, seed_task
    from play.errors import GameError

    if args.seeds < 1 or args.seeds > 1_000_000:
        return _fail(f"--seeds is {args.seeds}; expected 1 to 1,000,000")
    if args.jobs < 1 or args.jobs > 64:
        return _fail(f"--jobs is {args.jobs}; expected 1 to 64")
    if args.turns is not None and not 1 <= args.turns <= 1000:
        return _fail(f"--turns is {args.turns}; expected 1 to 1000")
    loaded = load_or_report(args.path)
    bundle = loaded.bundle
    if bundle is None:
        return 2
    variants = list(args.compare) if args.compare else [args.scenario]
    for v in variants:
        if v is None:
            return _fail("--scenario ID is required (or --compare A B)")
        if v not in bundle.scenarios:
            return _fail(f"bundle has no scenario {v!r} (it has: {', '.join(sorted(bundle.scenarios))})")
    if args.seed is not None:
        return _replay(args, bundle, variants[0])
    seeds = list(range(args.first_seed, args.first_seed + args.seeds))
    runs = {}
    t0 = time.perf_counter()
    for v in variants:
        try:
            runs[v] = executor_for(args.jobs).map(seed_task, (bundle, v, args.turns), seeds, progress=_progress(args.quiet))
        except GameError as exc:
            return _fail(f"scenario {v!r}: {exc}")
    elapsed = time.perf_counter() - t0
    boxes = {b.id: b.name for b in bundle.game.boxes}
    reports = {}
    for v in variants:
        scen = bundle.resolved(v)
        reports[v] = summary.summarise(runs[v], box_names=boxes, zone_names={z.id: z.name for z in scen.drop_zones},
                                       gaps=gaps_for(bundle, v))
        reports[v]["scenario"] = v
    if not any(r["kinds"] for r in reports.values()):
        print(f"hexproof analyze: scenario {variants[0]!r}: its system's plug-in lists no random procedure "
              "to analyse", file=sys.stderr)
    if args.compare:
        a, b = variants
        diff = summary.compare(runs[a], runs[b])
        data = {"a": reports[a], "b": reports[b], "b_minus_a": diff}
        text = (f"A = {a}\n" + summary.render_text(reports[a]) + f"\nB = {b}\n" + summary.render_text(reports[b])
                + "\n" + summary.render_compare_text(diff, a, b))
    else:
        data = reports[variants[0]]
        text = summary.render_text(data)
    # allow_nan=False: a NaN left in a figure is a bug here, not "NaN" (no JSON reader takes it)
    data_out = json.dumps(data, indent=2, sort_keys=False, allow_nan=False) if args.format == "json" else text
    if args.output:
        atomic_write_text(Path(args.output), data_out + ("" if data_out.endswith("\n") else "\n"), keep_backup=False)
    else:
        sys.stdout.write(data_out + ("" if data_out.endswith("\n") else "\n"))
    if not args.quiet:
        print(f"analyze: {len(seeds) * len(variants)} seeds in {elapsed:.2f} s with {args.jobs} job(s)", file=sys.stderr)
    if args.plots:
        from editor.analysis.plots import write_plots  # Qt: only when pictures are asked for

        for v in variants:
            for path in write_plots(bundle, v, reports[v], Path(args.plots)):
                print(f"wrote {path}", file=sys.stderr)
    return 0


def _replay(args: argparse.Namespace, bundle, scenario: str) -> int:  # type: ignore[no-untyped-def]
    import yaml

    from model.formats.yamlio import atomic_write_text
    from play.analysis.trial import play_steps, replay_script, run_seed, turn_label_of

    outcome = run_seed(bundle, scenario, args.seed, args.turns)
    played = play_steps(bundle, scenario, args.seed, args.turns)
    game, steps = played.game, played.steps
    lines = [f"seed {args.seed}: {len(steps)} random step(s), event log sha256 {outcome.log_sha256}"]
    for u in outcome.units:
        where = u.hex or (f"box:{u.box}" if u.box else u.status)
        drift = f", drifted {u.drift}" if u.drift is not None else ""
        when = f", turn {turn_label_of(u.turn)}" if u.turn else ""
        lines.append(f"  {u.unit} ({u.group}, {u.zone}{when}): {u.status} at {where}{drift}, "
                     f"steps lost {u.steps_lost}; events {', '.join(u.events) or '-'}")
    if args.format == "json":
        from dataclasses import asdict

        text = json.dumps(asdict(outcome), indent=2, allow_nan=False)
    else:
        text = "\n".join(lines) + "\n"
    if args.output:
        atomic_write_text(Path(args.output), text, keep_backup=False)
    else:
        sys.stdout.write(text)
    if args.script:
        root = bundle.root
        script = replay_script(root, scenario, args.seed, steps, Path(args.script).resolve().parent, args.turns)
        header = (f"# hexproof analyze {args.path} --scenario {scenario} --seed {args.seed}: the random steps of\n"
                  f"# seed {args.seed}; its event log's sha256 is {outcome.log_sha256}\n")
        atomic_write_text(Path(args.script), header + yaml.safe_dump(script, sort_keys=False, allow_unicode=True),
                          keep_backup=False)
    if args.log:
        atomic_write_text(Path(args.log), game.log_json() + "\n", keep_backup=False)
    return 0

"""``python -m bench``: run every benchmark and print its ratios."""

from bench import analysis_bench, scoring_bench

for name, module in [("hand analysis", analysis_bench), ("scoring", scoring_bench)]:
    print(f"== {name}")
    module.run()

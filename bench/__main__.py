"""``python -m bench``: run every benchmark and print its ratios."""

from bench import analysis_bench

for name, module in [("hand analysis", analysis_bench)]:
    print(f"== {name}")
    module.run()

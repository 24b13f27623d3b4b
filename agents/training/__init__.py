"""Training: the PPO and AlphaZero trainers, distillation of a search into a dataset and the
network fitted to it, and the workers that run training on more cores (PPO's data-parallel
processes, AlphaZero's self-play in processes or on Ray actors). Imports play-time agents and
models; nothing outside the command line (``savanna.cli``) and the benchmarks imports it."""

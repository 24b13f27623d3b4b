"""Networks and model files: the networks (their sparse first layer and masked heads), batched
inference, the sealed checkpoint format, each algorithm's settings and checkpoint files, and
the shipped baselines. Read by play-time agents and by trainers alike; imports neither."""

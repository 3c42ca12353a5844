"""What SessionStart prints of a project's memory: the digest and the learning heads it ranks."""

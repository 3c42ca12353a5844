"""Grow a placed transcript the way Claude Code does: append a typed prompt and an answer."""

import json
import uuid


def append_turn(transcript: str, session_id: str, cwd: str, user: str, assistant: str) -> None:
    common = {"sessionId": session_id, "cwd": cwd, "entrypoint": "cli", "isSidechain": False,
              "timestamp": "2026-01-01T12:00:00.000Z"}
    records = [
        {**common, "type": "user", "promptSource": "typed", "uuid": str(uuid.uuid4()),
         "message": {"role": "user", "content": user}},
        {**common, "type": "assistant", "uuid": str(uuid.uuid4()),
         "message": {"id": f"msg_{uuid.uuid4().hex[:12]}", "role": "assistant", "type": "message",
                     "content": [{"type": "text", "text": assistant}]}},
    ]
    with open(transcript, "a", encoding="utf-8") as fh:
        for r in records:
            fh.write(json.dumps(r) + "\n")

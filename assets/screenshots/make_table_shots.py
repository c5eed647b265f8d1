"""Make ``table-two-seats.png``: one networked table seen from two machines (README, "Playing across machines").

Run from the project folder: ``python assets/screenshots/make_table_shots.py``. It hosts a table on
127.0.0.1 (forest_road, secret stances, seed 7) and starts two game windows, each in its own process under
Xvfb (``xvfb-run``), one at each side's seat. Each window plays its seat with the computer player through the
screen until the second round's attack phase, then saves its window; the two are put side by side.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent / "table-two-seats.png"

SEAT = """
import sys, time
import pygame
from game.engine.players import make_player
from game.net.remote import RemoteSession
from game.ui.app import App
from game.ui.screen import Push

port, seat, out, seed = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
session = RemoteSession.join(f"ws://127.0.0.1:{port}", seat.capitalize() + "'s player", seat)
app = App(size=(1280, 720))
app.apply(Push(app.open_table(session)))
screen = app.top
player = make_player("tactical", seed)
end = time.monotonic() + 60
while time.monotonic() < end:
    app.pump()
    b = screen.battle
    d = b.decision()
    if b.round >= 2 and b.phase == "attack" and d is not None and not screen.journal.pending:
        if d.side == "blue" and len(b.log) > 0:
            break
    mine = screen.my_decision()
    if mine is not None and not (b.round >= 2 and b.phase == "attack"):
        screen.send(player(b, mine))
    time.sleep(0.01)
for _ in range(30):
    app.pump()
    time.sleep(0.02)
app.draw()
pygame.image.save(pygame.display.get_surface(), out)
print("saved", out, flush=True)
time.sleep(1.0)
session.close()
"""


def main() -> int:
    """Host, two windows, one picture."""
    import pygame

    host = subprocess.Popen(
        [
            sys.executable,
            "-u",
            "main.py",
            "host",
            "maps/forest_road.tmx",
            "--port",
            "0",
            "--seed",
            "7",
            "--secret-stances",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert host.stdout is not None
        line = host.stdout.readline()
        port = int(line.rsplit(":", 1)[1])
        shots = [Path(f"/tmp/table-{seat}.png") for seat in ("blue", "red")]
        seats = [
            subprocess.Popen(
                [
                    "xvfb-run",
                    "-a",
                    "-s",
                    "-screen 0 1280x720x24",
                    sys.executable,
                    "-c",
                    SEAT,
                    str(port),
                    seat,
                    str(p),
                    str(i),
                ],
                cwd=ROOT,
            )
            for i, (seat, p) in enumerate(zip(("blue", "red"), shots, strict=True))
        ]
        for s in seats:
            s.wait(120)
        time.sleep(0.5)
        images = [pygame.image.load(str(p)) for p in shots]
        w, h = images[0].get_size()
        gap = 16
        sheet = pygame.Surface((w * 2 + gap, h))
        sheet.fill((10, 10, 14))
        for i, img in enumerate(images):
            sheet.blit(img, (i * (w + gap), 0))
        half = pygame.transform.smoothscale(sheet, ((w * 2 + gap) // 2 * 2 // 2, h // 2 * 2 // 2))
        pygame.image.save(half, str(OUT))
        print(f"wrote {OUT}")
    finally:
        host.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())

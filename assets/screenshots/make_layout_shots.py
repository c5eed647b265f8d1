"""Make the deployment, movement, declaration, GM panel and GM's pause shots at one window size and UI scale
(docs/playing.md, "The screens").

Run from the project folder under a display at least that size, e.g.
``Xvfb :61 -screen 0 1920x1080x24 & DISPLAY=:61 python assets/screenshots/make_layout_shots.py 1024 640 1.25``
— the set is 1024×640 at 1.25 and 1.5, 1280×720 at 1.0 and 1.25, and 1920×1080 at 1.0. The UI scale is
written to a settings file in a temporary config folder before the window opens, as the Settings screen
would. Village map, seed 3, both sides at the screen:

- ``deploy-WxH[-S].png``: the deployment screen, blue on the map, red still in the tray;
- ``move-WxH[-S].png``: a refereed battle's first move, a path shown to the farthest reachable hex;
- ``declare-WxH[-S].png``: the first attack phase, a figure's declaration panel open on an enemy target;
- ``gm-panel-WxH[-S].png``: the GM's panel of a refereed battle;
- ``gm-pause-WxH[-S].png``: the same battle stopped for the GM before its first round.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent
VILLAGE = ROOT / "maps" / "village.tmx"


def main() -> int:
    """Three shots at the size and scale given on the command line."""
    width, height = int(sys.argv[1]), int(sys.argv[2])
    scale = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
    config = Path(tempfile.mkdtemp(prefix="ft-shots-"))
    os.environ["FUDGE_TACTICS_CONFIG_DIR"] = str(config)
    os.environ.setdefault("FUDGE_TACTICS_HOME", str(config / "home"))
    settings = {
        "window_width": width,
        "window_height": height,
        "ui_scale": scale,
        "animation_speed": 0.0,
        "gm_stop_rounds": False,
    }
    (config / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    sys.path.insert(0, str(ROOT))

    import pygame

    from game.engine.battle import Battle
    from game.engine.players import make_player
    from game.session import build_setup, new_session
    from game.ui.app import App
    from game.ui.battle_screen import BattleScreen, CurtainScreen
    from game.ui.battle_setup import BattleSetup
    from game.ui.deploy_screen import DeployScreen
    from game.ui.screen import Push

    suffix = f"{width}x{height}" + (f"-{round(scale * 100)}" if scale != 1.0 else "")

    def settle(app: App, frames: int = 10) -> None:
        for _ in range(frames):
            app.pump()

    def save(app: App, name: str) -> None:
        settle(app)
        app.draw()
        path = OUT / f"{name}-{suffix}.png"
        pygame.image.save(pygame.display.get_surface(), str(path))
        print("wrote", path)

    def key(app: App, k: int) -> None:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode="", scancode=0))
        app.pump()

    def lift_curtains(app: App) -> None:
        for _ in range(4):
            app.pump()
            if isinstance(app.top, CurtainScreen):
                key(app, pygame.K_RETURN)

    app = App(size=(width, height), seed=3)
    humans = (("blue", "human"), ("red", "human"))

    # deployment: blue on its map hexes, red back in the tray
    deploy = DeployScreen(app.ui, BattleSetup(VILLAGE, seed=3, gm="referee"), lambda _setup: None)
    app.apply(Push(deploy))
    settle(app)
    for piece in list(deploy.pieces.values()):
        if piece.side == "red":
            deploy.place(piece.id, None)
    save(app, "deploy")
    app.pop()

    # a battle in its first attack phase, one figure's declaration open on an enemy
    session = new_session(VILLAGE, seed=3, controllers=dict(humans))
    screen = BattleScreen(app.ui, session, app.to_title)
    app.apply(Push(screen))
    lift_curtains(app)
    player = make_player("tactical", 3)
    for _ in range(200):
        b = screen.battle
        d = b.decision()
        if d is None:
            break
        if d.reason == "declare" and d.side == "blue":
            screen.model.ensure_decl(d)
            if screen.model.targets():
                break
        screen.send(player(b, d))
        lift_curtains(app)
    if screen.model.decl.target is None:
        screen.declaration.cycle_target()
    app.dirty = True
    save(app, "declare")
    app.apply(app.to_title())

    def refereed() -> BattleScreen:
        session = new_session(VILLAGE, seed=3, controllers=dict(humans))
        session.setup_data["gm"] = "referee"
        session.battle = Battle(build_setup(session.setup_data, session.loaded))
        screen = BattleScreen(app.ui, session, app.to_title)
        app.apply(Push(screen))
        lift_curtains(app)
        return screen

    # a refereed battle's first move, the path to the farthest hex the mover reaches
    screen = refereed()
    d = screen.decision()
    mover = screen.model.active_mover(d) if d is not None else None
    if mover is not None:
        start = screen.battle.figure(mover).hex
        far = max(screen.model.reach(mover).hexes(), key=lambda h: (h.q - start.q) ** 2 + (h.r - start.r) ** 2)
        x, y = screen.board.camera.hex_to_screen(far)
        pygame.event.post(
            pygame.event.Event(pygame.MOUSEMOTION, pos=(round(x), round(y)), rel=(0, 0), buttons=(0, 0, 0))
        )
    save(app, "move")

    # its GM's panel
    key(app, pygame.K_g)
    lift_curtains(app)
    save(app, "gm-panel")
    app.apply(app.to_title())

    # the battle stopped for the GM before its first round
    app.ui.update_settings(replace(app.ui.settings, gm_stop_rounds=True))
    refereed()
    save(app, "gm-pause")
    app.ui.update_settings(replace(app.ui.settings, gm_stop_rounds=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())

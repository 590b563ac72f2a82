#!/usr/bin/env python3
"""Real programs from Debian under the capture layer, replayed.

Each case runs an unmodified program (Qt 5's Vulkan examples, vkd3d's
D3D12-on-Vulkan demos, mpv and GStreamer on Vulkan, vkcube beside the
MangoHud and vkBasalt layers in both loader orders, OpenGL programs and
games on Vulkan through Mesa's zink) on lavapipe in Xvfb with the
build-tree layer, waits for the trace of the frames it asked for, stops
the program, and replays the trace.

A case that is expected to replay (`expect: "replay"`) must come back as
the driver drew it: every frame replayed with 0 unsupported draws, every
dispatch replayed and the baseline at least PSNR_MIN dB against the
driver's picture; a case with `below` (overshade below another layer) must
also hold more draws than the same program captured with overshade above
that layer (the other layer's own); a tessellated
case is also replayed with `--modes all` and every unit other than the
baseline and SSAA must save shading (PMU, which merges partially covered
pixels, on a single-sampled frame at `--msaa 4`).

A case that does not replay yet names why (`expect: "gap"`, `reason`): the
test then checks that the frame was captured and that every unsupported
draw carries that reason, so the gap stays visible and named, and the
test fails as soon as the program fails differently, or replays (then the
case must move to "replay").  docs/layer.md lists the gaps.

usage: realworld.py CASE --manifest M --overshade BIN [--keep DIR]
       realworld.py --list
Exit: 0 pass, 1 fail, 77 skip (the program is not installed), 99 setup error.
"""
import argparse
import glob
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import FAIL, check, lavapipe_icd, replay_report, unavailable, xvfb  # noqa: E402

PSNR_MIN = 40.0
ZINK = {"GALLIUM_DRIVER": "zink", "LIBGL_ALWAYS_SOFTWARE": "1"}
# Games run silent: no sound server in the test (and SDL's PulseAudio
# start-up deadlocks in glibc's gettext lock with the sanitizer runtime).
GAME_SOUND_OFF = {"SDL_AUDIODRIVER": "dummy", "ALSOFT_DRIVERS": "null"}
GAME = dict(ZINK, **GAME_SOUND_OFF)
# With the sanitizer runtime preloaded (tools/test.sh's sanitizer leg),
# some games hang at start-up in glibc's locale lock (bindtextdomain or
# setlocale, in main, before any graphics), with or without the layer:
# those run in the plain leg only, skipped by this reason in the sanitizer
# leg.
GETTEXT_HANG = ("the program hangs in glibc's locale lock (bindtextdomain, setlocale) "
                "with the sanitizer runtime preloaded")
# vkBasalt reads its effects from a file (VKBASALT_CONFIG_FILE; "{tmp}" is
# the case's temporary directory); without one it does nothing.
VKBASALT = {"VKBASALT_CONFIG_FILE": "{tmp}/vkBasalt.conf"}
VKBASALT_FILES = {"vkBasalt.conf": "effects = cas:fxaa:smaa\ncasSharpness = 0.4\n"}


def torus_obj(major=1.0, minor=0.35, around=48, across=24):
    """A torus as Wavefront OBJ text: around x across quads, two triangles
    each (f3d's case draws it)."""
    lines = []
    for i in range(around):
        u = 2.0 * math.pi * i / around
        for j in range(across):
            w = 2.0 * math.pi * j / across
            r = major + minor * math.cos(w)
            lines.append("v %.6f %.6f %.6f" % (r * math.cos(u), r * math.sin(u),
                                               minor * math.sin(w)))
    for i in range(around):
        for j in range(across):
            a = i * across + j + 1
            b = (i + 1) % around * across + j + 1
            c = (i + 1) % around * across + (j + 1) % across + 1
            d = i * across + (j + 1) % across + 1
            lines.append("f %d %d %d" % (a, b, c))
            lines.append("f %d %d %d" % (a, c, d))
    return "\n".join(lines) + "\n"


F3D_FILES = {"torus.obj": torus_obj()}
# RetroArch's menu (Debian builds it without its Vulkan driver: GL), without
# sound or GameMode.
RETROARCH_FILES = {"retroarch.cfg": 'video_driver = "gl"\naudio_driver = "null"\n'
                   'menu_driver = "xmb"\nvideo_fullscreen = "false"\ngamemode_enable = "false"\n'
                   'video_window_width = "640"\nvideo_window_height = "480"\n'}
# With the sanitizer runtime preloaded into its processes, Chromium shows
# nothing and writes nothing within the capture's deadline.
CHROMIUM_ASAN = "Chromium does not start with the sanitizer runtime preloaded"
CHROMIUM_FILES = {"page.html": (
    "<!doctype html><body style='margin:0;background:linear-gradient(red,blue)'>"
    "<h1 style='font-family:sans-serif'>overshade</h1>"
    "<div style='width:200px;height:200px;margin:40px;border-radius:40px;background:green;"
    "animation:spin 2s linear infinite'></div>"
    "<style>@keyframes spin{to{transform:rotate(360deg)}}</style></body>")}
# (uid, gid) a case with `unprivileged` runs its program as when the test
# runs as root.
NOBODY = (65534, 65534)
VKBASALT_MANIFEST = "/usr/share/vulkan/implicit_layer.d/vkBasalt.json"
MANGOHUD_MANIFEST = "/usr/share/vulkan/implicit_layer.d/MangoHud.json"


def qt_example(name):
    found = sorted(glob.glob("/usr/lib/*/qt5/examples/vulkan/%s/%s" % (name, name)))
    return found[0] if found else name


def qt_case(name):
    """Qt 5's Vulkan example `name` on xcb, frame 5 replayed."""
    return dict(cmd=[qt_example(name)], env={"QT_QPA_PLATFORM": "xcb"}, frames="5",
                expect="replay")


def glmark2_case(benchmark):
    """glmark2's `benchmark` at 400x300 on zink, frame 30 replayed."""
    return dict(cmd=["glmark2", "-s", "400x300", "-b", benchmark], env=ZINK, frames="30",
                delimiter="submits:1", expect="replay")


def osg_case(example, delimiter="draws:1", **extra):
    """OpenSceneGraph's `example` on zink, frame 30 replayed."""
    return dict(cmd=[example], env=ZINK, frames="30", delimiter=delimiter, expect="replay",
                **extra)


def game_case(program, frames="60", args=(), **extra):
    """The OpenGL game /usr/games/`program` (with `args`) on zink, its
    frames delimited by the submits that draw, frame `frames` replayed."""
    return dict(cmd=["/usr/games/" + program] + list(args), env=GAME, frames=frames,
                delimiter="draws:1", expect="replay", **extra)


# A WebGL page for Chromium: a triangle of per-vertex colours turning every
# frame, drawn into a 256x256 canvas without antialiasing (ANGLE would
# render a multisampled image, whose contents the layer does not snapshot).
WEBGL_CANVAS = (256, 256)
WEBGL_FILES = {"page.html": """<!doctype html>
<body style="margin:0"><canvas id="c" width="%d" height="%d"></canvas><script>
const gl = document.getElementById("c").getContext("webgl", {antialias: false});
function shader(type, text) {
  const s = gl.createShader(type); gl.shaderSource(s, text); gl.compileShader(s); return s;
}
const pr = gl.createProgram();
gl.attachShader(pr, shader(gl.VERTEX_SHADER, "attribute vec2 p; attribute vec3 c; " +
  "uniform float t; varying vec3 v; void main() { v = c; " +
  "gl_Position = vec4(p.x * cos(t) - p.y * sin(t), p.x * sin(t) + p.y * cos(t), 0, 1); }"));
gl.attachShader(pr, shader(gl.FRAGMENT_SHADER, "precision mediump float; varying vec3 v; " +
  "void main() { gl_FragColor = vec4(v, 1); }"));
gl.linkProgram(pr);
gl.useProgram(pr);
gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-0.8, -0.7, 1, 0, 0, 0.8, -0.7, 0, 1, 0,
                                                 0, 0.8, 0, 0, 1]), gl.STATIC_DRAW);
for (const [name, size, offset] of [["p", 2, 0], ["c", 3, 8]]) {
  const at = gl.getAttribLocation(pr, name);
  gl.enableVertexAttribArray(at);
  gl.vertexAttribPointer(at, size, gl.FLOAT, false, 20, offset);
}
const ut = gl.getUniformLocation(pr, "t");
let t = 0;
function frame() {
  t += 0.02;
  gl.clearColor(0.1, 0.1, 0.2, 1);
  gl.clear(gl.COLOR_BUFFER_BIT);
  gl.uniform1f(ut, t);
  gl.drawArrays(gl.TRIANGLES, 0, 3);
  requestAnimationFrame(frame);
}
frame();
</script></body>
""" % WEBGL_CANVAS}


# name: program, environment, frames to capture, frame delimiter, what to
# expect, `deadline`: seconds the capture may take (default 120),
# `canvas`: (width, height) of a picture at least one frame must have,
# `scene_draws` (with `scene_why`): draws at least one frame must have, and
# `unprivileged`: the program refuses to run as root, so a test run as root
# runs it as nobody (NOBODY), owning the case's temporary directory;
# `asan_options`: more of the sanitizer runtime's options for the program,
# in the sanitizer leg (":name=value...");
# `approximated`: the names of what the replay draws only approximately
# that the frames may report (report.json's "approximated"; any other name
# fails the case); `psnr_min` (with `psnr_why`): the baseline's PSNR floor
# where such an approximation shows (PSNR_MIN otherwise).
# Zink under Xvfb has no Vulkan swapchain (it draws through the X server's
# software path), so its frames are delimited by submissions.
CASES = {
    "qt-hellovulkantriangle": qt_case("hellovulkantriangle"),
    "qt-hellovulkancubes": qt_case("hellovulkancubes"),
    "qt-hellovulkantexture": qt_case("hellovulkantexture"),
    "qt-hellovulkanwidget": qt_case("hellovulkanwidget"),
    # (hellovulkanwindow only clears: no draw to replay.)
    # vkd3d-triangle draws when the window is exposed, so frame 0 is the one.
    "vkd3d-triangle": dict(cmd=["vkd3d-triangle"], frames="0", expect="replay"),
    "vkd3d-gears": dict(cmd=["vkd3d-gears"], frames="5", expect="replay"),
    "zink-glxgears": dict(cmd=["glxgears"], env=ZINK, frames="20",
                          delimiter="submits:1", expect="replay"),
    "zink-glmark2-build": glmark2_case("build:duration=60"),
    "zink-glmark2-texture": glmark2_case("texture:duration=60"),
    "zink-glmark2-shading": glmark2_case("shading:shading=phong:duration=60"),
    "zink-glmark2-bump": glmark2_case("bump:bump-render=normals:duration=60"),
    # (Mesa 22.3's zink passes freed memory to vkCmdSetVertexInputEXT; the
    # sanitizer leg lets it through by name, see capture() and
    # layer/lyr_commands.c, so the OpenSceneGraph cases run there too.)
    "zink-osgtessellationshaders": osg_case("osgtessellationshaders", delimiter="submits:1",
                                            tessellated=True),
    # OpenSceneGraph's examples that need no data files: a geometry shader,
    # a procedural terrain, multiple render targets, a compute shader
    # writing a texture, shader storage buffers.
    "zink-osggeometryshaders": osg_case("osggeometryshaders"),
    "zink-osghangglide": osg_case("osghangglide"),
    "zink-osgmultiplerendertargets": osg_case("osgmultiplerendertargets"),
    "zink-osgcomputeshaders": osg_case("osgcomputeshaders"),
    "zink-osgSSBO": osg_case("osgSSBO"),
    # OpenGL games through zink, at their first screen: frames delimited by
    # the submits that draw (zink submits uploads on their own while a
    # game loads).
    "zink-etr": game_case("etr"),
    "zink-chromium-bsu": game_case("chromium-bsu", asan_skip=GETTEXT_HANG),
    "zink-teeworlds": game_case("teeworlds"),
    # Anisotropic filtering on by default (maxAnisotropy 8, text glyphs
    # too): lavapipe's EWA filter (pipeline/texture/tex_sample.c).
    "zink-neverball": game_case("neverball", asan_skip=GETTEXT_HANG),
    # billard-gl (GLUT): a lit, textured pool table in fixed-function GL
    # (zink's generated shaders for lighting and texture environments),
    # blended text over it; its intro logo fills the first few hundred
    # frames, so the table's frame is a later one.
    "zink-billard-gl": game_case("billard-gl", frames="400"),
    # SuperTux (SDL 2, OpenGL 3.3 core renderer): 2D sprites batched in
    # vertex buffers, a title screen with its tile map.
    "zink-supertux": game_case("supertux2"),
    # Minetest's main menu (Irrlicht, GL 2): GUI images scaled onto the
    # screen with nearest filtering, text from font atlases.
    "zink-minetest": game_case("minetest", asan_skip=GETTEXT_HANG),
    # Armagetron Advanced (SDL 1.2, legacy GL): the 3D grid arena behind
    # its menu, display lists, line and quad primitives.
    "zink-armagetronad": game_case("armagetronad"),
    # MegaGlest (SDL 2, legacy GL with VBOs) previewing a map
    # (`--preview-map`, no intro): the 3D terrain of twisty_canyon in the
    # forest tileset, texture splatting and fog, and its trees and rocks as
    # alpha-tested models.  The camera starts close to the ground (75
    # draws) and pulls back over the first seconds of wall time, so a frame
    # number holds more or less of the map as the machine ran fast or slow
    # before it: frame 150 held 252 to 1750 draws, frame 300 the whole map
    # (1730 to 1750) in the runs seen.  The case asks for at least the
    # terrain with its models, not the first view.
    "zink-megaglest": dict(game_case("megaglest", frames="300", min_draws=200,
                                     min_draws_why="the terrain with its models, not the "
                                     "camera's first view"),
                           cmd=["/usr/games/megaglest", "--preview-map=twisty_canyon,forest"]),
    # Scorched 3D's client (`scorched3dc`; `scorched3d` is its wxWidgets
    # launcher) at its start screen: an island landscape with its
    # splatting shader, trees as billboards, a sky dome, a ship, and the
    # water shader (a reflection texture rendered in the same frame and
    # sampled projectively, a shadow map, normal-map noise, fog), 6000 to
    # 7000 draws.
    "zink-scorched3d": game_case("scorched3dc"),
    # OpenClonk (GL 3.2 core) with its first tutorial, which a scenario
    # named on the command line opens in its editor (Qt 5): the viewport
    # draws the 2D landscape with its material shader (texture arrays,
    # light and ambient maps), sprites and fire into a framebuffer object
    # (about 200 draws), and Qt then draws that onto the window (a few
    # draws), each its own frame here: four frames captured, at least one
    # of them the viewport (`scene_draws`).  (Its game window, `--fullscreen`, renders into a
    # multisampled image, whose contents the layer does not snapshot.)
    # The game refuses to run as root: `unprivileged`.
    "zink-openclonk": dict(game_case("openclonk", frames="60-63", unprivileged=True,
                                     scene_draws=50, scene_why="the viewport, not only Qt's "
                                     "composite of it"),
                           cmd=["/usr/games/openclonk", "--nosound", "--nosplash",
                                "/usr/share/games/openclonk/Tutorials.ocf/Tutorial01.ocs"]),
    # Stellarium (Qt 5, QOpenGLWidget) at a fixed date and hour: the night
    # sky over its default landscape, stars as point sprites, the Milky
    # Way, the landscape panorama, labels and its interface.  Qt renders
    # the scene into a framebuffer object (about 100 draws) and then draws
    # that onto the window (1 or 2 draws), each its own frame here, and not
    # in turn (frames 60 and 61 were both composites in one run): eight
    # frames captured, at least one of them the sky (`scene_draws`).
    "zink-stellarium": dict(cmd=["stellarium", "--sky-date=20230812", "--sky-time=22:30:00",
                                 "--full-screen=no"], env=GAME, frames="60-67",
                            delimiter="draws:1", expect="replay", scene_draws=50,
                            scene_why="the sky, not only Qt's composite of it"),
    # OpenArena (ioquake3, its OpenGL 2 renderer on a 3.2 core context):
    # the map oa_dm1 started at once, windowed at 640x480: the level seen
    # from a spawn point (the game picks one of several), lightmapped and
    # GLSL-shaded walls, the weapon model, the HUD's text and icons; zink's
    # vertex shaders declare ShaderLayer.
    # (With the sanitizer runtime, its game module's COM_StripExtension
    # copies a string over itself with strncpy: the program's bug,
    # suppressed in that library, `asan_libs`.)
    "zink-openarena": game_case("openarena", frames="100", args=(
        "+set", "r_fullscreen", "0", "+set", "r_mode", "3", "+map", "oa_dm1"),
        asan_libs=("cgamex86_64.so", "qagamex86_64.so", "uix86_64.so")),
    # X-Moto (SDL 2, legacy GL): its level "Max Power" played at once at
    # 640x480, a few seconds in: the rider, the textured terrain's polygons
    # and edge strips, a tree of blended sprites over the sky, the
    # minimap and timers.  Filling its level database first presents a few
    # hundred loading frames of a few draws each.
    "zink-xmoto": game_case("xmoto", frames="400", args=(
        "--nowww", "--nosound", "-win", "-res", "640x480", "--level", "_iL01_"),
        min_draws=50, min_draws_why="the level, not its loading screen",
        asan_skip=GETTEXT_HANG),  # (in textdomain, seen with gdb)
    # Red Eclipse (the Tesseract engine, GL 3): a deathmatch on the map
    # Institute through the spectator camera at 640x480, deferred shading
    # into several targets.  The engine sometimes splits a frame over
    # submits, and the captured one then tests depth that the driver wrote
    # in an earlier submit (sim_surface.captured).
    # (It replaces operator new with its own over malloc, which the
    # sanitizer runtime's operator delete reports as a mismatch: the
    # program's design, that check off for it.)
    "zink-redeclipse": game_case("redeclipse", frames="450", args=(
        "-df0", "-dw640", "-dh480", "-xname overshade; start institute $modeidxdeathmatch"),
        asan_options=":alloc_dealloc_mismatch=0"),
    # Nexuiz (the DarkPlaces engine, GL with GLSL): the map aggressor at
    # 640x480, windowed, without sound, from a spectator's spawn point: its
    # corridors lightmapped with normal and gloss maps, the scoreboard and
    # console text over them.
    "zink-nexuiz": dict(game_case("nexuiz", frames="200"),
                        cmd=["/usr/games/nexuiz", "-nosound", "+vid_fullscreen", "0",
                             "+vid_width", "640", "+vid_height", "480", "+map", "aggressor"]),
    # Cube 2 (the Sauerbraten engine, Debian's cube2 with BananaBread's
    # data): the map colos at 640x480, windowed, its world geometry
    # lightmapped and normal-mapped under a sky box, the HUD over it.  Its
    # occlusion queries make zink submit each frame in three parts (the
    # world, the models and effects, the HUD), each its own frame here: six
    # frames captured, at least one of them the world (`scene_draws`).
    # (Like Red Eclipse it replaces operator new with its own over malloc:
    # that sanitizer check off for it.)
    "zink-cube2": dict(game_case("cube2", frames="200-205", scene_draws=100,
                                 scene_why="the world, not only the HUD's submit",
                                 asan_options=":alloc_dealloc_mismatch=0"),
                       cmd=["/usr/games/cube2", "-w640", "-h480", "-t0", "-xmap colos"]),
    # GL-117 (SDL, fixed-function GL): its menu over the flight through the
    # mountains that runs behind it, fogged terrain, the aircraft, text;
    # the intro before it has some 16 draws (`min_draws`).  (It frees
    # arrays from new[] with delete at start, the program's own bug: that
    # sanitizer check off for it.)
    "zink-gl-117": game_case("gl-117", frames="900-903", scene_draws=100,
                             scene_why="the menu's flight, not the intro (a run under the "
                             "sanitizers once caught a 7-draw frame 900)",
                             asan_options=":alloc_dealloc_mismatch=0"),
    # BZFlag (legacy GL) against a server of its own (bzfs) with three
    # robot tanks, windowed at 640x480: the 3D field of boxes and pyramids,
    # the radar with its antialiased outlines, the HUD and the console.
    # zink draws GL's lines with Bresenham rasterization, which the replay
    # models, and GL_LINE_SMOOTH's with RECTANGULAR_SMOOTH
    # (VK_EXT_line_rasterization, set as dynamic state), which it draws as
    # rectangles and reports: the radar's soft edges come out hard, hence
    # the lower floor (36.99 to 37.55 dB in three runs where the frame held
    # them, 60 dB in one where it did not).
    "zink-bzflag": dict(game_case("bzflag", frames="300", min_draws=100,
                                  min_draws_why="the field, not the joining screen",
                                  approximated=("smooth lines (RECTANGULAR_SMOOTH line "
                                                "rasterization)",),
                                  psnr_min=34.0,
                                  psnr_why="the radar's smooth lines drawn as rectangles",
                                  needs=["/usr/games/bzfs", "/usr/games/bzflag"]),
                        cmd=["sh", "-c", "/usr/games/bzfs -p 15154 -ms 3 +r -j & sleep 2; "
                             "exec /usr/games/bzflag -nolist -nomotd -mute -window 640x480 "
                             "-solo 3 overshade@localhost:15154"]),
    # Naev (SDL 2, OpenGL with its own GLSL) at its main menu over a star system: the
    # background nebula images, about 2700 stars as points of size 0.8
    # (which lavapipe draws a pixel wide), a planet, the logo and the
    # menu's text.  A conf.lua naming this version skips the welcome
    # dialogue of a first start.
    "zink-naev": game_case("naev", frames="200", args=("-M",), asan_skip=GETTEXT_HANG,
                           files={"config/naev/conf.lua": 'lastversion = "0.8.2+dev"\n'}),
    # The Widelands map editor (SDL 2, an OpenGL 2.1 context) opening the map Crater
    # (`--editor=MAP`): the terrain's textured triangles blended at their
    # edges, the map's resource markers, flags and rocks as sprites, the
    # grid, the toolbar.  Its start-up renders images into textures, each
    # in a submit of its own (frame 100 was one of them, a 1-draw image),
    # so the map's frame is a later one.  It needs its configuration
    # directory to exist (an empty config file).
    "zink-widelands-editor": game_case(
        "widelands", frames="1500", asan_skip=GETTEXT_HANG,
        args=("--nosound", "--editor=/usr/share/games/widelands/data/maps/Crater.wmf"),
        files={"config/widelands/config": ""}),
    # f3d (a VTK viewer) rendering a torus into a file and exiting: the
    # surface with its cell edges (VTK draws them in the fragment shader
    # from edge equations a geometry shader computes), screen-space
    # ambient occlusion, FXAA and tone mapping, over the 7 draws of VTK's
    # render passes; lighting with pow() of a clamped cosine, which zink
    # emits as exp2(log2(x) * y).
    "zink-f3d": dict(cmd=["f3d", "{tmp}/torus.obj", "--edges", "--ssao", "--fxaa",
                          "--tone-mapping", "--resolution", "640,480",
                          "--output", "{tmp}/f3d.png"],
                     env=ZINK, files=F3D_FILES, frames="0", delimiter="draws:1",
                     expect="replay"),
    # f3d's ground grid (--grid) over the torus: lines from fract() of the
    # plane's coordinates over their derivatives, the axes picked with
    # `g.x != min(g.x, g.y)`, an unordered comparison (the optimiser once
    # dropped it: dashed axes at 41.8 dB, different from run to run).
    "zink-f3d-grid": dict(cmd=["f3d", "{tmp}/torus.obj", "--grid", "--resolution", "640,480",
                               "--output", "{tmp}/f3d.png"],
                          env=ZINK, files=F3D_FILES, frames="0", delimiter="draws:1",
                          expect="replay", psnr_min=80.0,
                          psnr_why="the grid replays within a unit of the driver's "
                                   "picture in a few pixels"),
    # RetroArch's XMB menu without a core or content (GL 3 through zink;
    # dbus-run-session gives its GameMode client a session bus, whose
    # absence aborts it): the animated ribbon drawn by a shader over a
    # gradient, the menu's text from a font atlas, at 960x720.
    "zink-retroarch-xmb": dict(cmd=["dbus-run-session", "--", "retroarch", "--menu",
                                    "--config={tmp}/retroarch.cfg"],
                               env=GAME, files=RETROARCH_FILES, frames="60",
                               delimiter="draws:1", expect="replay",
                               needs=["/usr/bin/retroarch"]),
    # OpenTTD's title screen on its SDL OpenGL video driver (OpenGFX
    # graphics): a city game playing behind the main menu, drawn by the CPU
    # blitter into a buffer that two draws put on the screen (the window,
    # then the mouse cursor).  Frames 100 and 200 were still the loading
    # screen in the runs seen.
    "zink-openttd": dict(cmd=["/usr/games/openttd", "-v", "sdl-opengl",
                              "-r", "640x480", "-s", "null", "-m", "null", "-x"],
                         env=GAME, frames="400", delimiter="draws:1", expect="replay"),
    # Warzone 2100, a real-time strategy game with a Vulkan renderer of its
    # own (vulkan.hpp, dynamic dispatch, SDL 2): its main menu, a 3D scene
    # (the orbital station) behind text rendered from glyph atlases,
    # blended panels and the game's own shaders.
    "warzone2100-menu": dict(cmd=["/usr/games/warzone2100", "--gfxbackend=vulkan", "--window",
                                  "--resolution=1024x768", "--nosound"],
                             env=GAME_SOUND_OFF, frames="40", expect="replay",
                             asan_skip=GETTEXT_HANG),
    # Its first campaign mission, played: the terrain (texture splatting,
    # fog, the lighting of its shaders), units, decals and the game's
    # interface, at 640x480.  The loading screen presents a number of
    # frames that depends on the machine's speed (20 to over 40 seen), then
    # each frame of the mission takes seconds on lavapipe: frame 90 is well
    # into the mission, and a frame with the loading screen's few draws
    # fails the case rather than passing for the mission.
    "warzone2100-cam1a": dict(cmd=["/usr/games/warzone2100", "--gfxbackend=vulkan", "--window",
                                   "--resolution=640x480", "--nosound", "--game=CAM_1A"],
                              env=GAME_SOUND_OFF, frames="90", expect="replay",
                              min_draws=80, min_draws_why="the mission, not its loading screen",
                              deadline=600, asan_skip=GETTEXT_HANG),
    # SuperTuxKart on its Vulkan renderer (`--render-driver=vulkan`, its
    # "GE" engine: VMA, an array texture per draw, SDL 2): a race started
    # at once (`--race-now`) on the classroom track with one AI kart: the
    # 3D track, karts, particles and the race's interface.
    "supertuxkart-race": dict(cmd=["/usr/games/supertuxkart", "--render-driver=vulkan",
                                   "--windowed", "--screensize=640x480", "--race-now",
                                   "--track=olivermath", "--numkarts=2"],
                              env=GAME_SOUND_OFF, frames="60", expect="replay"),
    # Chromium's display compositor on Vulkan (Skia, `--use-vulkan`, with
    # ANGLE on Vulkan for its GL contexts) in its GPU process, showing a
    # page the test writes: a gradient, text and a rounded, rotating box.
    # The browser's other processes do not use Vulkan.
    "chromium-vulkan": dict(cmd=["chromium", "--no-sandbox", "--user-data-dir={tmp}/profile",
                                 "--use-vulkan", "--use-angle=vulkan",
                                 "--enable-features=Vulkan,VulkanFromANGLE,DefaultANGLEVulkan",
                                 "--ignore-gpu-blocklist", "--no-first-run", "--test-type",
                                 "file://{tmp}/page.html"],
                            files=CHROMIUM_FILES, frames="30", expect="replay",
                            asan_skip=CHROMIUM_ASAN),
    # Other layers beside ours, as users run games.  The loader puts the
    # implicit layer it finds first nearest the application (docs/layer.md,
    # "Beside other layers"): with our manifest under XDG_DATA_HOME (found
    # before /usr/share) overshade sees the application's calls only and the
    # other layer's work happens below it, after the reference picture is
    # copied; with `below` our manifest is found last, overshade sees the
    # other layer's own command buffers, and the frame and its reference
    # include what that layer drew (check_below: more draws than the same
    # program captured with overshade above).
    # MangoHud's overlay: Dear ImGui draws (a font atlas texture, scissored
    # indexed draws, vertex colours) recorded and submitted inside
    # vkQueuePresentKHR.
    "mangohud-vkcube": dict(cmd=["vkcube"], env={"MANGOHUD": "1"}, frames="5",
                            expect="replay", needs=[MANGOHUD_MANIFEST]),
    "mangohud-below-vkcube": dict(cmd=["vkcube"], env={"MANGOHUD": "1"}, frames="5",
                                  expect="replay", below=True, needs=[MANGOHUD_MANIFEST]),
    # vkBasalt's post-processing: the application renders into images the
    # layer made, and at present CAS, FXAA and SMAA (full-screen passes,
    # SMAA with its area and search textures and a stencil pass) write the
    # swapchain image.
    "vkbasalt-vkcube": dict(cmd=["vkcube"], env=dict(VKBASALT, ENABLE_VKBASALT="1"),
                            files=VKBASALT_FILES, frames="5", expect="replay",
                            needs=[VKBASALT_MANIFEST]),
    "vkbasalt-below-vkcube": dict(cmd=["vkcube"], env=dict(VKBASALT, ENABLE_VKBASALT="1"),
                                  files=VKBASALT_FILES, frames="5", expect="replay",
                                  below=True, needs=[VKBASALT_MANIFEST]),
    # mpv's Vulkan renderer (libplacebo): a video test pattern uploaded
    # every frame, scaled and dithered by generated GLSL.  libplacebo skips
    # software devices unless one is named.
    "mpv-vulkan": dict(cmd=["mpv", "--no-config", "--vo=gpu", "--gpu-api=vulkan",
                            "--gpu-context=x11vk", "--vulkan-device={lavapipe}",
                            "--ao=null", "--length=60",
                            "av://lavfi:testsrc=size=320x240:rate=30"],
                       frames="10", expect="replay"),
    # GStreamer's Vulkan elements: NV12 frames uploaded by vulkanupload
    # (buffer-to-image copies, one image per plane), converted to RGBA by
    # vulkancolorconvert (a fragment shader sampling both planes), copied
    # to the swapchain image by vulkansink.
    "gst-vulkansink": dict(cmd=["gst-launch-1.0", "videotestsrc", "pattern=smpte", "!",
                                "video/x-raw,format=NV12", "!", "vulkanupload", "!",
                                "vulkancolorconvert", "!", "vulkansink"],
                           frames="10", expect="replay"),
    # WebGL in Chromium on ANGLE's Vulkan back end, which builds its
    # pipelines from graphics pipeline libraries (VK_EXT_graphics_pipeline_
    # library) and passes its shaders inline.  Chromium's compositor shares
    # ANGLE's device; the canvas is drawn offscreen and never presented, so
    # frames are the submits that draw, and some of those captured must be
    # the canvas's (`canvas`: a frame whose picture has its size; its
    # reference is the last colour attachment the frame wrote).
    "chromium-webgl": dict(cmd=["chromium", "--no-sandbox", "--user-data-dir={tmp}/profile",
                                "--use-vulkan",
                                "--enable-features=Vulkan,VulkanFromANGLE,DefaultANGLEVulkan",
                                "--use-angle=vulkan", "--ignore-gpu-blocklist", "--no-first-run",
                                "--test-type", "file://{tmp}/page.html"],
                           files=WEBGL_FILES, frames="100-105", delimiter="draws:1",
                           expect="replay", canvas=WEBGL_CANVAS,
                           asan_skip="Chromium does not start with the sanitizer runtime "
                                     "preloaded"),
}

def lavapipe_name():
    """lavapipe's deviceName (it names the LLVM version), for programs that
    take a device by name."""
    env = dict(os.environ, VK_ICD_FILENAMES=lavapipe_icd())
    p = subprocess.run(["vulkaninfo", "--summary"], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, timeout=60)
    for line in p.stdout.decode("utf-8", "replace").splitlines():
        key, _, value = line.partition("=")
        if key.strip() == "deviceName" and "llvmpipe" in value:
            return value.strip()
    return "llvmpipe"


# The program's own window system failing (X errors creating its window,
# no display), which zink then answers with frames of no pixels.  Seen
# with OpenSceneGraph's examples and GStreamer while the X servers reset
# when their last client left (tests/xvfb.py now starts them -noreset);
# never caused by the layer.
X_TROUBLE = ("Unable to open display", "cannot open display", "X Error of failed request",
             # GStreamer's vulkansink when its XCB connection failed
             "Cannot create an XCB window from a non-XCB display")


# Where a stalled program's threads stand: none of them in the layer's
# library means the stall is the program's.  (OpenClonk's editor once sat
# in its Qt event loop for the whole deadline without reaching its
# captured frames, one run of the full suite in several; its own SIGTERM
# handler's backtrace was all that was left of it.)
LAYER_LIBRARY = "libVkLayer_overshade"


def stacks(pgid):
    """Every thread's stack (gdb) of the processes in process group `pgid`
    other than the X server and Python, as text; '' when one could not be
    read."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                stat = f.read()
            exe = os.path.basename(os.readlink("/proc/%s/exe" % entry))
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[2]) != pgid or exe.startswith("Xvfb") or exe.startswith("python"):
            continue
        try:
            p = subprocess.run(["gdb", "-p", entry, "-batch", "-nx", "-ex",
                                "thread apply all bt 30"], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=120)
        except (OSError, subprocess.TimeoutExpired) as e:
            # (Unknown stacks could be the layer's: no run again.)
            print("%s (%s): no stacks: %s" % (entry, exe, e))
            return ""
        lines = [line[:200] for line in p.stdout.decode("utf-8", "replace").splitlines()
                 if line.startswith(("#", "Thread"))]
        if not any(line.startswith("#") for line in lines):
            print("%s (%s): gdb read no stack" % (entry, exe))
            return ""
        out.append("%s (%s):\n%s" % (entry, exe, "\n".join(lines)))
    return "\n".join(out)


def capture(case, tmp, manifest):
    """capture_once, run once more when the program's window system failed
    (X_TROUBLE in its log), or when it stalled (ran to the deadline without
    a trace) with no thread in the layer: that is the program and the
    machine, not the case.  Returns the trace's path or None."""
    for attempt in range(2):
        trace, log, stalled = capture_once(case, tmp, manifest, final=attempt == 1)
        if trace or attempt == 1:
            return trace
        if stalled and LAYER_LIBRARY not in stalled:
            print("the program stalled without a trace, none of its threads in the "
                  "layer; running it again")
        elif any(s in log for s in X_TROUBLE):
            print("the program's window system failed (%s); running it again" %
                  next(s for s in X_TROUBLE if s in log))
        else:
            return trace
        shutil.rmtree(os.path.join(tmp, "trace"), ignore_errors=True)
    return None


def capture_once(case, tmp, manifest, final):
    """Runs the case's program under the layer until its trace is complete
    (or 120 s pass), then stops it.  Returns the trace's path or None, the
    program's log, and its threads' stacks when it stalled (None when it
    did not); checks only when `final` or the log is free of X_TROUBLE and
    the stall is not the program's own.  The program gets an X server of its own (tests/xvfb.py)."""
    env = dict(os.environ)
    for k in list(env):
        if k.startswith("OVERSHADE") or k == "DISABLE_OVERSHADE":
            del env[k]
    # meson test sets MALLOC_PERTURB_, which fills the program's own fresh
    # allocations with garbage: Mesa 22.3's zink then passes an
    # uninitialised vkCmdBindVertexBuffers count to lavapipe now and then,
    # and the driver crashes (the layer records such a call as unsupported
    # and passes it on).  The programs run as their users run them.
    env.pop("MALLOC_PERTURB_", None)
    # A layer built with AddressSanitizer needs its runtime loaded first
    # into the uninstrumented program (tools/test.sh's sanitizer leg sets
    # this); the programs' own leaks are not ours to report.
    # Mesa 22.3's zink passes arrays it has just freed to
    # vkCmdSetVertexInputEXT, and lavapipe copies them with memcpy: errors
    # in interceptors called from the driver are the programs' and the
    # driver's, suppressed by library name; all others still abort.
    preload = os.environ.get("OVERSHADE_TEST_ASAN_PRELOAD")
    if preload:
        supp = os.path.join(tmp, "asan.supp")
        with open(supp, "w") as f:
            f.write("interceptor_via_lib:libvulkan_lvp.so\n")
            # A case's program's own libraries (`asan_libs`), where the
            # runtime finds the program's bugs, not ours.
            for lib in case.get("asan_libs", ()):
                f.write("interceptor_via_lib:%s\n" % lib)
        env["LD_PRELOAD"] = preload
        env["ASAN_OPTIONS"] = ("detect_leaks=0:halt_on_error=1:abort_on_error=1:"
                               "suppressions=" + supp + case.get("asan_options", ""))
    data_home = os.path.join(tmp, "share")
    layer_dir = os.path.join(data_home, "vulkan", "implicit_layer.d")
    if case.get("below"):
        # Found after the system's layers: the loader puts it below them.
        after = os.path.join(tmp, "share-after")
        layer_dir = os.path.join(after, "vulkan", "implicit_layer.d")
        env["XDG_DATA_DIRS"] = "%s:%s" % (env.get("XDG_DATA_DIRS") or
                                          "/usr/local/share:/usr/share", after)
    os.makedirs(layer_dir, exist_ok=True)
    for name, text in case.get("files", {}).items():
        os.makedirs(os.path.dirname(os.path.join(tmp, name)), exist_ok=True)
        with open(os.path.join(tmp, name), "w") as f:
            f.write(text)
    if case.get("unprivileged") and os.geteuid() == 0:
        # The layer's library beside its manifest, where the unprivileged
        # user can read it: a checkout in a private directory (mktemp -d
        # makes them 0700) is out of its reach, and the loader would then
        # run the program without the layer.
        with open(manifest) as f:
            desc = json.load(f)
        lib = desc["layer"]["library_path"]
        desc["layer"]["library_path"] = os.path.join(layer_dir, os.path.basename(lib))
        shutil.copy(lib, desc["layer"]["library_path"])
        with open(os.path.join(layer_dir, "VkLayer_overshade.json"), "w") as f:
            json.dump(desc, f, indent=2)
    else:
        shutil.copy(manifest, os.path.join(layer_dir, "VkLayer_overshade.json"))
    out = os.path.join(tmp, "trace")
    runtime = os.path.join(tmp, "runtime")
    os.makedirs(runtime, mode=0o700, exist_ok=True)
    env.update({"XDG_DATA_HOME": data_home, "XDG_CONFIG_HOME": os.path.join(tmp, "config"),
                "XDG_RUNTIME_DIR": runtime, "VK_ICD_FILENAMES": lavapipe_icd(),
                # Games keep settings under HOME: each run starts from the
                # program's defaults.
                "HOME": tmp,
                "OVERSHADE": "1", "OVERSHADE_CAPTURE": case["frames"],
                "OVERSHADE_OUTPUT": out})
    if "delimiter" in case:
        env["OVERSHADE_FRAME_DELIMITER"] = case["delimiter"]
    env.update({k: v.replace("{tmp}", tmp) for k, v in case.get("env", {}).items()})
    args = [a.replace("{lavapipe}", lavapipe_name()) if "{lavapipe}" in a else a
            for a in case["cmd"]]
    args = [a.replace("{tmp}", tmp) for a in args]
    if case.get("unprivileged") and os.geteuid() == 0:
        # Its HOME and the trace's output are under tmp.
        for root, dirs, files in os.walk(tmp):
            for name in [root] + [os.path.join(root, n) for n in dirs + files]:
                os.chown(name, NOBODY[0], NOBODY[1])
        args = ["setpriv", "--reuid=%d" % NOBODY[0], "--regid=%d" % NOBODY[1],
                "--clear-groups", "--"] + args
    cmd = xvfb("1024x768x24") + args
    log_path = os.path.join(tmp, "program.log")
    with open(log_path, "wb") as log:
        # In the case's own directory: what a program writes beside it
        # (MegaGlest left a file in the test's working directory) goes
        # with the case.
        p = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT,
                             start_new_session=True, cwd=tmp)
        traces = []
        deadline = time.monotonic() + case.get("deadline", 120)
        while time.monotonic() < deadline and p.poll() is None:
            traces = glob.glob(os.path.join(out, "*.ovs"))
            if traces:
                break
            time.sleep(0.5)
        died = p.poll()
        # A program that renders its picture and exits (f3d --output)
        # may finish between two looks.
        traces = traces or glob.glob(os.path.join(out, "*.ovs"))
        stalled = None
        if died is None and not traces:
            stalled = stacks(p.pid)
        try:
            os.killpg(p.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass
        # A program that catches SIGTERM (SDL turns it into an event) and
        # is stuck outlives its X server: nothing of the case is left running.
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.wait()
    with open(log_path, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    print("\n".join(line for line in text.splitlines() if "overshade" in line))
    if stalled is not None:
        print("%s ran %d s without writing its trace; its threads:\n%s" %
              (case["cmd"][0], case.get("deadline", 120), stalled or "(none read)"))
        if not final and stalled and LAYER_LIBRARY not in stalled:
            return None, text, stalled
    if not final and any(s in text for s in X_TROUBLE):
        return None, text, stalled
    check(died is None or (traces and died == 0),
          "%s exited (status %r) before its trace was written" % (case["cmd"][0], died))
    layer_errors = [line for line in text.splitlines()
                    if line.startswith("overshade: error") or line.startswith("overshade: warning")]
    check(not layer_errors, "the layer logged problems: %r" % layer_errors[:3])
    traces = glob.glob(os.path.join(out, "*.ovs"))
    if not check(len(traces) == 1, "expected one trace, found %r" % traces):
        print(text[-3000:])
        return None, text, stalled
    return traces[0], text, stalled


def replay(overshade, trace, out, *extra):
    return replay_report(overshade, trace, out, ["--threads", "2"] + list(extra), timeout=900)


def reasons(frame):
    return ["%s: %s" % (u.get("status"), u.get("detail")) for u in frame.get("unsupported", [])]


def check_replays(name, case, report):
    frames = report.get("frames", [])
    check(len(frames) >= 1, "no frame replayed")
    # Programs that draw a scene into a framebuffer object and then the
    # window from it (Qt's widgets) make frames of either kind: at least
    # one captured frame must be the scene.
    if case.get("scene_draws"):
        most = max([f.get("draws", 0) for f in frames] or [0])
        check(most >= case["scene_draws"],
              "no captured frame holds the scene (%d draws or more; the most: %d): %s" %
              (case["scene_draws"], most, case.get("scene_why")))
    for f in frames:
        idx = f.get("index")
        ref = f.get("reference") or {}
        psnr = ref.get("psnr")
        print("%s frame %s: %s draws, %s unsupported, %s tessellated, PSNR %s dB, SSIM %s, "
              "replay %.1f ms, driver GPU %.1f ms" %
              (name, idx, f.get("draws"), f.get("unsupported_draws"),
               f.get("tessellated_draws"), psnr, ref.get("ssim"), f.get("replay_ms", 0),
               f.get("driver_gpu_ms") or 0))
        check(f.get("draws", 0) > 0, "frame %s: no draws" % idx)
        check(f.get("draws", 0) >= case.get("min_draws", 1),
              "frame %s: %s draws, fewer than the %d of the scene the case is for (%s)" %
              (idx, f.get("draws"), case.get("min_draws", 1), case.get("min_draws_why")))
        check(f.get("unsupported_draws") == 0,
              "frame %s: unsupported draws: %r" % (idx, reasons(f)[:4]))
        # A dispatch not replayed leaves what it writes stale, which a
        # frame can hide (mpv's uploads change little between frames).
        compute = f.get("compute") or {}
        check(compute.get("unsupported", 0) == 0,
              "frame %s: dispatches not replayed: %r" %
              (idx, [d.get("detail") for d in compute.get("not_replayed", [])][:4]))
        floor = case.get("psnr_min", PSNR_MIN)
        check(isinstance(psnr, (int, float)) and psnr >= floor,
              "frame %s: baseline PSNR %r below %.0f dB%s" %
              (idx, psnr, floor, " (%s)" % case["psnr_why"] if "psnr_why" in case else ""))
        # Draws replayed with state the replay draws only approximately
        # (lines of another rasterization mode drawn as rectangles): named,
        # and only those the case expects (`approximated`).
        approx = {a.get("detail"): a.get("draws") for a in f.get("approximated", [])}
        if approx:
            print("%s frame %s: approximated %r" % (name, idx, approx))
        unexpected = set(approx) - set(case.get("approximated", ()))
        check(not unexpected, "frame %s: draws approximated: %r" % (idx, sorted(unexpected)))
        if case.get("tessellated"):
            check(f.get("tessellated_draws", 0) > 0, "frame %s: no tessellated draw" % idx)
    if case.get("canvas"):
        sizes = [(f.get("width"), f.get("height")) for f in frames]
        check(tuple(case["canvas"]) in sizes, "no frame of the canvas's size %dx%d: %r" %
              (case["canvas"] + (sizes,)))


def check_units(report, units_checked=("qfm", "pmu", "cps", "amfs")):
    for f in report.get("frames", []):
        units = f.get("units", {})
        base = units.get("baseline", {}).get("quads_shaded", 0)
        check(base > 0, "frame %s: baseline shaded nothing" % f.get("index"))
        for unit in units_checked:
            q = units.get(unit, {}).get("quads_shaded")
            check(isinstance(q, (int, float)) and q < base,
                  "frame %s: %s shades %r quads, baseline %r" % (f.get("index"), unit, q, base))


def check_gap(case, report):
    frames = report.get("frames", [])
    check(len(frames) >= 1, "no frame replayed")
    for f in frames:
        rs = reasons(f)
        print("frame %s: %s draws, %s unsupported: %r" %
              (f.get("index"), f.get("draws"), f.get("unsupported_draws"), rs[:3]))
        check(f.get("unsupported_draws", 0) > 0,
              "frame %s replays now: the case should expect \"replay\"" % f.get("index"))
        for r in rs:
            check(case["reason"] in r, "frame %s: unexpected reason %r" % (f.get("index"), r))


def check_below(case, tmp, args, report):
    """A case with overshade below another layer also runs with overshade
    above it (found first): the frame it captures there holds the
    application's draws only, so below there must be more (the other
    layer's), and both replay."""
    above = dict(case, below=False)
    sub = os.path.join(tmp, "above")
    os.makedirs(sub)
    trace = capture(above, sub, args.manifest)
    if not trace:
        return
    report_above = replay(args.overshade, trace, os.path.join(sub, "baseline"))
    if not report_above:
        return
    check_replays(args.case + " (overshade above)", above, report_above)
    draws = {f.get("index"): f.get("draws", 0) for f in report_above.get("frames", [])}
    for f in report.get("frames", []):
        idx = f.get("index")
        check(idx in draws and f.get("draws", 0) > draws[idx],
              "frame %s: %s draws below the other layer, %s above it: its draws are "
              "missing" % (idx, f.get("draws"), draws.get(idx)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("case", nargs="?")
    ap.add_argument("--manifest")
    ap.add_argument("--overshade")
    ap.add_argument("--keep", help="copy the trace and the replay's output here")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    if args.list:
        print("\n".join(CASES))
        return 0
    if args.case not in CASES or not args.manifest or not args.overshade:
        print("usage: realworld.py CASE --manifest M --overshade BIN (cases: --list)")
        return 99
    case = CASES[args.case]
    status = unavailable((case["cmd"][0], "Xvfb"))
    if status:
        return status
    for path in case.get("needs", []):
        if not os.path.exists(path):
            print("skip: %s is not installed (tools/test.sh installs it)" % path)
            return 77
    if os.environ.get("OVERSHADE_TEST_ASAN_PRELOAD") and case.get("asan_skip"):
        print("skip under the sanitizer runtime: " + case["asan_skip"])
        return 77
    with tempfile.TemporaryDirectory(prefix="overshade-realworld-") as tmp:
        trace = capture(case, tmp, args.manifest)
        if trace:
            out = os.path.join(tmp, "baseline")
            report = replay(args.overshade, trace, out)
            if report and case["expect"] == "replay":
                check_replays(args.case, case, report)
                if case.get("below"):
                    check_below(case, tmp, args, report)
                if case.get("tessellated"):
                    allout = os.path.join(tmp, "all")
                    report_all = replay(args.overshade, trace, allout, "--modes", "all")
                    if report_all:
                        single = all(f.get("samples", 1) == 1
                                     for f in report_all.get("frames", []))
                        check_units(report_all,
                                    ("qfm", "cps", "amfs") if single else
                                    ("qfm", "pmu", "cps", "amfs"))
                        if single:
                            # PMU merges partially covered pixels, which a
                            # single-sampled frame has none of: it is judged
                            # at 4 samples.
                            msaa = os.path.join(tmp, "pmu-msaa4")
                            report_ms = replay(args.overshade, trace, msaa,
                                               "--modes", "baseline,pmu", "--msaa", "4")
                            if report_ms:
                                check_units(report_ms, ("pmu",))
            elif report:
                check_gap(case, report)
        if args.keep:
            dst = os.path.join(args.keep, args.case)
            shutil.rmtree(dst, ignore_errors=True)
            # Links and sockets (a browser profile's lock) stay behind.
            shutil.copytree(tmp, dst, symlinks=True,
                            ignore=shutil.ignore_patterns("share", "runtime", "profile"))
    return 1 if FAIL else 0


if __name__ == "__main__":
    sys.exit(main())

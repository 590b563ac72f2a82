/*
 * tools/replay.h — what `overshade replay` (cmd_replay.c) shares with its
 * helpers: PNG output (png.c).  The conversion of captured frames into the
 * pipeline's frame description is the replay part (replay/replay.h).
 */
#ifndef OVERSHADE_TOOLS_REPLAY_H
#define OVERSHADE_TOOLS_REPLAY_H

#include <stdint.h>

#include "replay/replay.h"

/* Writes an 8-bit RGBA (alpha != 0) or RGB image (the alpha bytes of
 * `rgba` dropped) as PNG.  Returns 0 on success, else -1 with a line in
 * `detail` (160 bytes). */
int
cli_png_write(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height, int alpha,
              char *detail);

#endif /* OVERSHADE_TOOLS_REPLAY_H */

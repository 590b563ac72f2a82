#!/usr/bin/env python3
"""CLI tests for `overshade spirv`.

    check_spirv.py OVERSHADE VERT.spv FRAG.spv MALFORMED.spv...

A good module prints its summary and exits 0; every malformed module
(tests/pipeline/malformed/) exits 1 with its named error on one stderr line
and nothing on stdout; a missing file exits 1; bad usage exits 2.
"""
import os
import subprocess
import sys
import tempfile

# The error each malformed module must give (as test_spv_reader.c).
MALFORMED = {
    "bad_layout": "SIM_SPV_ERROR_BAD_LAYOUT",
    "branch_to_value": "SIM_SPV_ERROR_BAD_CFG",
    "empty_callee": "SIM_SPV_ERROR_BAD_CFG",
    "empty_function": "SIM_SPV_ERROR_BAD_CFG",
    "float64_dot": "SIM_SPV_ERROR_UNSUPPORTED_OPCODE",
    "float64_fma": "SIM_SPV_ERROR_UNSUPPORTED_EXT_INST",
    "float64_matrix": "SIM_SPV_ERROR_UNSUPPORTED",
    "function_without_body": "SIM_SPV_ERROR_BAD_CFG",
    "half_output": "SIM_SPV_ERROR_UNSUPPORTED",
    "geometry_stream": "SIM_SPV_ERROR_UNSUPPORTED",
    "int64_atomic": "SIM_SPV_ERROR_UNSUPPORTED",
    "int64_atomics": "SIM_SPV_ERROR_UNSUPPORTED_CAPABILITY",
    "int64_bitcount": "SIM_SPV_ERROR_UNSUPPORTED_OPCODE",
    "int64_find_msb": "SIM_SPV_ERROR_UNSUPPORTED_EXT_INST",
    "int64_output": "SIM_SPV_ERROR_UNSUPPORTED",
    "int64_spec_op": "SIM_SPV_ERROR_UNSUPPORTED",
    "int64_switch": "SIM_SPV_ERROR_UNSUPPORTED",
    "array_length_fixed": "SIM_SPV_ERROR_BAD_TYPE",
    "atomic_function": "SIM_SPV_ERROR_UNSUPPORTED",
    "load_type_mismatch": "SIM_SPV_ERROR_BAD_TYPE",
    "missing_terminator": "SIM_SPV_ERROR_BAD_CFG",
    "nested_descriptor_array": "SIM_SPV_ERROR_UNSUPPORTED",
    "no_entry_point": "SIM_SPV_ERROR_NO_ENTRY_POINT",
    "read_sampled_image": "SIM_SPV_ERROR_BAD_TYPE",
    "recursion": "SIM_SPV_ERROR_RECURSION",
    "store_to_input": "SIM_SPV_ERROR_BAD_LAYOUT",
    "subpass_query": "SIM_SPV_ERROR_BAD_TYPE",
    "texel_pointer_load": "SIM_SPV_ERROR_UNSUPPORTED",
    "texel_pointer_sampled": "SIM_SPV_ERROR_BAD_TYPE",
    "type_mismatch": "SIM_SPV_ERROR_BAD_TYPE",
    "undefined_id": "SIM_SPV_ERROR_ID_UNDEFINED",
    "unsupported_capability": "SIM_SPV_ERROR_UNSUPPORTED_CAPABILITY",
    "unsupported_ext_inst": "SIM_SPV_ERROR_UNSUPPORTED_EXT_INST",
    "unsupported_opcode": "SIM_SPV_ERROR_UNSUPPORTED_OPCODE",
    "write_sampled_image": "SIM_SPV_ERROR_BAD_TYPE",
}

failures = 0


def fail(msg):
    global failures
    print("FAIL: " + msg, file=sys.stderr)
    failures += 1


def run(args):
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def expect_ok(args, must_contain):
    r = run(args)
    if r.returncode != 0:
        fail("%s exited %d: %s" % (args, r.returncode, r.stderr))
        return
    for line in must_contain:
        if line not in r.stdout:
            fail("%s: no %r in\n%s" % (args, line, r.stdout))


def expect_error(args, name, status=1):
    r = run(args)
    if r.returncode != status:
        fail("%s exited %d, expected %d" % (args, r.returncode, status))
    if r.stdout:
        fail("%s wrote to stdout on failure: %r" % (args, r.stdout))
    lines = r.stderr.splitlines()
    if len(lines) != 1 or name not in lines[0]:
        fail("%s: expected one stderr line naming %s, got %r" % (args, name, r.stderr))


def main():
    exe, vert, frag = sys.argv[1:4]
    malformed = sys.argv[4:]

    expect_ok([exe, "spirv", vert],
              ["stage: vertex", "entry point: main", "inputs: 1", "builtin VertexIndex",
               "outputs: ", "location 0.0", "resources: 1", "uniform buffer", "instructions: "])
    expect_ok([exe, "spirv", "--stage", "frag", frag],
              ["stage: fragment", "inputs: 1", "outputs: 1", "sampled image", "instructions: "])
    expect_ok([exe, "spirv", "--stage", "vertex", "--entry", "main", "--ir", vert],
              ["stage: vertex", "LDBUF"])
    expect_error([exe, "spirv", "--stage", "fragment", vert], "SIM_SPV_ERROR_NO_ENTRY_POINT")
    expect_error([exe, "spirv", "--entry", "not_main", frag], "SIM_SPV_ERROR_NO_ENTRY_POINT")

    seen = set()
    for path in malformed:
        name = os.path.splitext(os.path.basename(path))[0]
        if name not in MALFORMED:
            fail("no expected error for %s" % path)
            continue
        seen.add(name)
        expect_error([exe, "spirv", path], MALFORMED[name])
    for name in MALFORMED:
        if name not in seen:
            fail("malformed module %s not given" % name)

    with tempfile.TemporaryDirectory() as tmp:
        data = open(frag, "rb").read()
        cut = os.path.join(tmp, "cut.spv")
        with open(cut, "wb") as f:
            f.write(data[:len(data) // 2 + 2])  # mid-instruction, not a whole word
        r = run([exe, "spirv", cut])
        if r.returncode != 1 or r.stdout or "SIM_SPV_ERROR_" not in r.stderr:
            fail("truncated module: exit %d, stderr %r" % (r.returncode, r.stderr))
        empty = os.path.join(tmp, "empty.spv")
        open(empty, "wb").close()
        expect_error([exe, "spirv", empty], "SIM_SPV_ERROR_TRUNCATED")
        expect_error([exe, "spirv", os.path.join(tmp, "missing.spv")], "No such file")

    r = run([exe, "spirv"])
    if r.returncode != 2:
        fail("no file: exit %d, expected 2" % r.returncode)
    r = run([exe, "spirv", "--stage", "pixel", frag])
    if r.returncode != 2:
        fail("unknown stage: exit %d, expected 2" % r.returncode)
    r = run([exe, "help", "spirv"])
    if r.returncode != 0 or "--stage" not in r.stdout:
        fail("help spirv: exit %d" % r.returncode)

    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

/*
 * tests/capture/test_format.c — names and messages generated from the lists.
 */
#include <string.h>

#include "capture/capture.h"
#include "test.h"

int
main(void)
{
    int i;

    CHECK_EQ_STR("CAP_ERROR_OK", cap_error_name(CAP_ERROR_OK));
    CHECK_EQ_STR("CAP_ERROR_TRUNCATED", cap_error_name(CAP_ERROR_TRUNCATED));
    CHECK_EQ_STR("CAP_ERROR_STATE", cap_error_name(CAP_ERROR_STATE));
    CHECK_EQ_STR("the trace has no end block (incomplete file)", cap_error_message(CAP_ERROR_NO_END));
    CHECK_EQ_STR("CAP_ERROR_UNKNOWN", cap_error_name(CAP_ERROR_COUNT));
    CHECK_EQ_STR("CAP_ERROR_UNKNOWN", cap_error_name((enum cap_error)-1));
    CHECK_EQ_STR("unknown error", cap_error_message(CAP_ERROR_COUNT));
    for (i = 0; i < CAP_ERROR_COUNT; i++) {
        CHECK(strncmp(cap_error_name((enum cap_error)i), "CAP_ERROR_", 10) == 0);
        CHECK(strlen(cap_error_message((enum cap_error)i)) > 5);
    }

    CHECK_EQ_STR("draw", cap_cmd_op_name(CAP_CMD_DRAW));
    CHECK_EQ_STR("submit", cap_cmd_op_name(CAP_CMD_SUBMIT));
    CHECK_EQ_STR("present", cap_cmd_op_name(CAP_CMD_PRESENT));
    CHECK_EQ_STR("unknown", cap_cmd_op_name(0));
    CHECK_EQ_STR("unknown", cap_cmd_op_name(CAP_CMD_OP_COUNT));
    for (i = 1; i < CAP_CMD_OP_COUNT; i++) {
        CHECK(strcmp(cap_cmd_op_name((uint32_t)i), "unknown") != 0);
    }

    CHECK_EQ_STR("end", cap_block_type_name(CAP_BLOCK_END));
    CHECK_EQ_STR("pipeline", cap_block_type_name(CAP_BLOCK_PIPELINE));
    CHECK_EQ_STR("frame", cap_block_type_name(CAP_BLOCK_FRAME));
    CHECK_EQ_STR("unknown", cap_block_type_name(CAP_BLOCK_TYPE_COUNT));
    CHECK_EQ_STR("unknown", cap_block_type_name(UINT32_MAX));
    return TEST_RESULT();
}

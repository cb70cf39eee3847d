# Runs `COMMAND model INPUT`, prints its stderr, and fails unless it exited with status 2
# (ompscope's own errors, docs/design.md "Exit status"). The caller matches the message.
execute_process(COMMAND ${COMMAND} model ${INPUT} RESULT_VARIABLE status ERROR_VARIABLE message)
message("${message}")
if(NOT status EQUAL 2)
  message(FATAL_ERROR "expected exit status 2, got ${status}")
endif()

# Writes a help2man include file whose COMMANDS section holds `PROGRAM CMD --help` for each of
# COMMANDS (cmake/install.cmake). Roff: backslashes escaped, lines starting with . or ' guarded.
set(text "[COMMANDS]\n")
foreach(cmd IN LISTS COMMANDS)
  execute_process(COMMAND ${PROGRAM} ${cmd} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${PROGRAM} ${cmd} --help failed (${rc})")
  endif()
  string(REPLACE "\\" "\\e" help "${help}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" help "${help}")
  string(APPEND text ".SS ${cmd}\n.nf\n${help}.fi\n")
endforeach()
file(WRITE ${OUT} "${text}")

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
# SEE ALSO: where the documents that --help cites as docs/<name>.md are installed (DOC_DIR, relative
# to the prefix).
string(APPEND text "[SEE ALSO]\n"
       "The documents the help texts cite as docs/<name>.md are installed in ${DOC_DIR}/ of the "
       "installation prefix (/usr/${DOC_DIR}/ for the Debian package): wtrace.md (the trace "
       "format), config.md (every configuration key), hardware.md (each preset's figures and "
       "their sources; \\fBgpumemsim presets\\fR prints its path), examples.md (the worked "
       "examples the tests reproduce), groundtruth.md (the hardware capture kit) and README.md.\n")
file(WRITE ${OUT} "${text}")

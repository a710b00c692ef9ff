# The compiler cache: every C++ compile goes through ccache when it is installed, so a second
# build of the same sources (a second CI run, a fresh clone, another preset's tree with the same
# flags) takes each object from the cache instead of compiling it (docs/ARCHITECTURE.md,
# "Building"). The cache is ccache's own folder (~/.cache/ccache unless CCACHE_DIR says
# otherwise), shared by every clone of the project on the machine.
# Its settings are set by cmake/ccache-launch.sh for each compile, so they hold however the
# build is started:
#   base_dir     paths under the source folder are hashed relative to it: a clone elsewhere hits
#   hash_dir     off: the build folder's name is not part of the key (only debug info's
#                DW_AT_comp_dir would differ; sanitizer reports name files relative to it)
#   sloppiness   pch_defines,time_macros: needed to cache a compile that uses a precompiled
#                header (GCC's is given by -include, which ccache follows); include_file_*: a
#                header written in the same second as the compile is still hashed, not skipped
#   pch_external_checksum   a precompiled header is known by the checksum written beside it
#                (cmake/ccache-launch.sh), not by reading its 350 MB for each compile
# RIDGEPOINT_CCACHE=OFF compiles without it.
option(RIDGEPOINT_CCACHE "Compile through ccache when it is installed" ON)

if(RIDGEPOINT_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(RIDGEPOINT_CCACHE_PROGRAM ccache)
  if(RIDGEPOINT_CCACHE_PROGRAM)
    set(CMAKE_CXX_COMPILER_LAUNCHER
        sh "${PROJECT_SOURCE_DIR}/cmake/ccache-launch.sh" "${PROJECT_SOURCE_DIR}"
        "${RIDGEPOINT_CCACHE_PROGRAM}")
    if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
      # A clang precompiled header records its time stamp; ccache cannot reuse one that does.
      add_compile_options(-Xclang -fno-pch-timestamp)
    endif()
  endif()
endif()

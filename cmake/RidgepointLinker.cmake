# The linker: LLVM's lld when the compiler can use it, GNU ld otherwise. A build links the
# program, three or four libraries and over a hundred test programs; lld links each three to four
# times faster (docs/PERFORMANCE.md, "CI"), which is most of a warm CI build once the compiler
# cache holds every object. The programs are the same either way (the tests run on both).
# RIDGEPOINT_LLD=OFF links with the compiler's default linker.
option(RIDGEPOINT_LLD "Link with lld when the compiler accepts -fuse-ld=lld" ON)

if(RIDGEPOINT_LLD)
  include(CheckLinkerFlag)
  check_linker_flag(CXX "-fuse-ld=lld" RIDGEPOINT_HAVE_LLD)
  if(RIDGEPOINT_HAVE_LLD)
    add_link_options(-fuse-ld=lld)
  endif()
endif()

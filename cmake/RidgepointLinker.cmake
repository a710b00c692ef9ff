# The linker: LLVM's lld when the compiler can use it, GNU ld otherwise. A build links the
# program, three or four libraries and over a hundred test programs; lld links each three to four
# times faster (docs/PERFORMANCE.md, "CI"). The programs are the same either way (the tests run on
# both).
# RIDGEPOINT_LLD=OFF links with the compiler's default linker.
option(RIDGEPOINT_LLD "Link with lld when the compiler accepts -fuse-ld=lld" ON)

if(RIDGEPOINT_LLD)
  include(CheckLinkerFlag)
  check_linker_flag(CXX "-fuse-ld=lld" RIDGEPOINT_HAVE_LLD)
  if(RIDGEPOINT_HAVE_LLD)
    add_link_options(-fuse-ld=lld)
  endif()
endif()

# ridgepoint_link_objects(<executable> <library>...): links the libraries' object files into the
# executable instead of the libraries themselves, with the other libraries each of them links,
# and not position-independent: its pointers are fixed when it is linked, not at every start.
function(ridgepoint_link_objects exe)
  set(parts ${ARGN})
  target_include_directories(${exe} PRIVATE "${PROJECT_SOURCE_DIR}")
  foreach(part IN LISTS parts)
    target_sources(${exe} PRIVATE $<TARGET_OBJECTS:${part}>)
    get_target_property(linked ${part} LINK_LIBRARIES)
    foreach(lib IN LISTS linked)
      if(lib AND NOT lib IN_LIST parts)
        target_link_libraries(${exe} PRIVATE ${lib})
      endif()
    endforeach()
  endforeach()
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_link_options(${exe} PRIVATE -no-pie)
  endif()
endfunction()

# Precompiled headers: every widget, window and test translation unit includes Qt's and
# QCustomPlot's headers, which are most of its compile time (GCC, Debug + ASan: 7.4 s for
# widgets/chart/rooflabelplacement.cpp, 2.7 s with them precompiled). Each set is parsed once
# per build instead of once per file; docs/ARCHITECTURE.md, "Building".
# A header a target includes itself is still included: a precompiled header only comes first.
# RIDGEPOINT_PCH=OFF builds without them (the lint preset: clang-tidy reads a compile database
# whose precompiled headers are never built).
option(RIDGEPOINT_PCH "Precompile the Qt and QCustomPlot headers" ON)

# ridgepoint_precompile_widgets(<target>): the headers a widget or window source includes.
function(ridgepoint_precompile_widgets target)
  if(RIDGEPOINT_PCH)
    target_precompile_headers(${target} PRIVATE <qcustomplot.h> <QtWidgets/QtWidgets>)
  endif()
endfunction()

# ridgepoint_test_pch(<name> <libs...>): a library whose only job is the precompiled header that
# the tests linking <libs> reuse, built with those tests' flags but for
# their own macros (ridgepoint_add_test).
function(ridgepoint_test_pch name)
  if(NOT RIDGEPOINT_PCH)
    return()
  endif()
  # Not Qt Test's headers: they read QT_TESTCASE_BUILDDIR, which Qt defines per test folder.
  set(headers <QtCore/QtCore>)
  if("Qt6::Widgets" IN_LIST ARGN)
    set(headers <qcustomplot.h> <QtWidgets/QtWidgets>)
  endif()
  # Nor Qt Test on the link line: GCC refuses a precompiled header made where a macro the test
  # defines (QT_TESTCASE_BUILDDIR, per folder) was defined otherwise, and takes one made where it
  # was not defined at all.
  add_library(${name} STATIC "${PROJECT_SOURCE_DIR}/tests/support/pch.cpp")
  target_link_libraries(${name} PRIVATE ${ARGN})
  ridgepoint_set_warnings(${name})
  target_precompile_headers(${name} PRIVATE ${headers})
endfunction()

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
# the tests linking <libs> reuse (ridgepoint_add_test), built with those tests' flags.
function(ridgepoint_test_pch name)
  if(NOT RIDGEPOINT_PCH)
    return()
  endif()
  # Qt Test's headers too, which every test includes (a test's uncached ASan compile is mostly
  # code generation: 18 s median; with them precompiled the mean went from 20.3 to 19.1 s over
  # 127 tests, one build each). They could not be while Qt Test defined QT_TESTCASE_BUILDDIR per
  # test folder (qtest.h reads it, and GCC refuses a precompiled header made where a macro it
  # read was defined otherwise); the tests no longer get it (tests/CMakeLists.txt).
  set(headers <QtCore/QtCore> <QtTest/QtTest>)
  if("Qt6::Widgets" IN_LIST ARGN)
    set(headers <qcustomplot.h> <QtWidgets/QtWidgets> <QtTest/QtTest>)
  endif()
  add_library(${name} STATIC "${PROJECT_SOURCE_DIR}/tests/support/pch.cpp")
  target_link_libraries(${name} PRIVATE ${ARGN} Qt6::Test)
  ridgepoint_set_warnings(${name})
  target_precompile_headers(${name} PRIVATE ${headers})
endfunction()

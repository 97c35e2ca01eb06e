# databox_module(NAME DEPS <targets...> [TEST_DEPS <targets...>] [DIRS <subfolders...>])
#   Builds the static library databox_<NAME> from every *.cc in the current folder (and in the
#   DIRS subfolders, parts of the same module) except *_test.cc and *_main.cc, and a test
#   program <NAME>_test from the *_test.cc files,
#   registered with ctest and linked with databox_test_paths (common/test_paths.h). Modules
#   include each other as "module/file.h" from src/.
function(databox_module NAME)
  cmake_parse_arguments(ARG "" "" "DEPS;TEST_DEPS;DIRS" ${ARGN})
  set(folders "${CMAKE_CURRENT_SOURCE_DIR}")
  foreach(dir ${ARG_DIRS})
    list(APPEND folders "${CMAKE_CURRENT_SOURCE_DIR}/${dir}")
  endforeach()
  list(TRANSFORM folders APPEND "/*.cc" OUTPUT_VARIABLE src_globs)
  list(TRANSFORM folders APPEND "/*_test.cc" OUTPUT_VARIABLE test_globs)
  file(GLOB srcs CONFIGURE_DEPENDS ${src_globs})
  file(GLOB tests CONFIGURE_DEPENDS ${test_globs})
  list(FILTER srcs EXCLUDE REGEX "_(test|main)\\.cc$")
  if(srcs)
    add_library(databox_${NAME} STATIC ${srcs})
    target_include_directories(databox_${NAME} PUBLIC "${PROJECT_SOURCE_DIR}/src")
    target_link_libraries(databox_${NAME} PUBLIC ${ARG_DEPS})
  else()  # header-only or not written yet
    add_library(databox_${NAME} INTERFACE)
    target_include_directories(databox_${NAME} INTERFACE "${PROJECT_SOURCE_DIR}/src")
    target_link_libraries(databox_${NAME} INTERFACE ${ARG_DEPS})
  endif()
  if(tests)
    add_executable(${NAME}_test ${tests})
    # The paths of the checkout come from common/test_paths.h (cmake/TestPaths.cmake).
    target_link_libraries(${NAME}_test PRIVATE databox_${NAME} ${ARG_TEST_DEPS} databox_test_paths
                          GTest::gtest_main GTest::gmock)
    gtest_discover_tests(${NAME}_test TEST_PREFIX "${NAME}." DISCOVERY_TIMEOUT 60)
  endif()
endfunction()

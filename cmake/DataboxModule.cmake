# databox_module(NAME DEPS <targets...>)
#   Builds the static library databox_<NAME> from every *.cc in the current folder except
#   *_test.cc and *_main.cc, and a test program <NAME>_test from the *_test.cc files,
#   registered with ctest and linked with databox_test_paths (common/test_paths.h). Modules
#   include each other as "module/file.h" from src/.
function(databox_module NAME)
  cmake_parse_arguments(ARG "" "" "DEPS;TEST_DEPS" ${ARGN})
  file(GLOB srcs CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/*.cc")
  file(GLOB tests CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/*_test.cc")
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

# databox_module(NAME DEPS <targets...>)
#   Builds the static library databox_<NAME> from every *.cc in the current folder except
#   *_test.cc and *_main.cc, and a test program <NAME>_test from the *_test.cc files,
#   registered with ctest. Modules include each other as "module/file.h" from src/.
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
    target_link_libraries(${NAME}_test PRIVATE databox_${NAME} ${ARG_TEST_DEPS} GTest::gtest_main GTest::gmock)
    target_compile_definitions(${NAME}_test PRIVATE
      DATABOX_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
      DATABOX_RECORDINGS_DIR="${DATABOX_RECORDINGS_DIR}"
      DATABOX_VENV_DIR="${DATABOX_VENV_DIR}")
    gtest_discover_tests(${NAME}_test TEST_PREFIX "${NAME}." DISCOVERY_TIMEOUT 60)
  endif()
endfunction()

# Version check of the proofnum CMake package: the version is the installed pkg-config file's
# (cargo-c writes the crate's version there). Compatible when the version asked for is not
# newer and has the same major version, or for 0.y versions the same 0.y (semver: 0.1 and 0.2
# are incompatible).

include("${CMAKE_CURRENT_LIST_DIR}/proofnumPcFile.cmake")
set(PACKAGE_VERSION "")
if(_proofnum_pc_file)
  file(STRINGS "${_proofnum_pc_file}" _proofnum_version_line REGEX "^Version:")
  string(REGEX REPLACE "^Version:[ ]*" "" PACKAGE_VERSION "${_proofnum_version_line}")
endif()

if(NOT PACKAGE_VERSION)
  set(PACKAGE_VERSION_UNSUITABLE TRUE)
elseif(PACKAGE_FIND_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
  string(REGEX MATCH "^([0-9]+)\\.([0-9]+)" _proofnum_have "${PACKAGE_VERSION}")
  set(_proofnum_have_major "${CMAKE_MATCH_1}")
  set(_proofnum_have_minor "${CMAKE_MATCH_2}")
  if(NOT PACKAGE_VERSION VERSION_LESS PACKAGE_FIND_VERSION
     AND PACKAGE_FIND_VERSION_MAJOR EQUAL _proofnum_have_major
     AND (NOT _proofnum_have_major EQUAL 0 OR PACKAGE_FIND_VERSION_COUNT LESS 2
          OR PACKAGE_FIND_VERSION_MINOR EQUAL _proofnum_have_minor))
    set(PACKAGE_VERSION_COMPATIBLE TRUE)
  endif()
  if(PACKAGE_FIND_VERSION STREQUAL PACKAGE_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
  endif()
else()
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
endif()

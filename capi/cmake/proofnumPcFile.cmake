# Finds the installation's prefix from this file's place (<prefix>/share/proofnum/cmake) and
# the pkg-config file cargo-c installed in its libdir (lib, lib64 or lib/<multiarch>): sets
# _proofnum_prefix and _proofnum_pc_file (empty when there is none). Shared by
# proofnumConfig.cmake and proofnumConfigVersion.cmake.

get_filename_component(_proofnum_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
file(GLOB _proofnum_pc_file
  "${_proofnum_prefix}/lib/pkgconfig/proofnum.pc"
  "${_proofnum_prefix}/lib*/pkgconfig/proofnum.pc"
  "${_proofnum_prefix}/lib/*/pkgconfig/proofnum.pc")
if(_proofnum_pc_file)
  list(GET _proofnum_pc_file 0 _proofnum_pc_file)
endif()

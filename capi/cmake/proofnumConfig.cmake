# CMake package of the proofnum C library, installed by `cargo cinstall` (capi/Cargo.toml) to
# <prefix>/share/proofnum/cmake/. Use:
#
#   find_package(proofnum 0.1 REQUIRED)            # -DCMAKE_PREFIX_PATH=<prefix> if not standard
#   target_link_libraries(app PRIVATE proofnum::proofnum)
#
# Targets:
#   proofnum::proofnum         the shared library when it is installed, else the static one
#   proofnum::proofnum_shared  libproofnum.so (its soname, libproofnum.so.0.1, is what runs)
#   proofnum::proofnum_static  libproofnum.a, with the system libraries it needs
# Each brings the include directory, so `#include <proofnum.h>` (and <proofnum.hpp>) works.
#
# It needs no pkg-config program: it reads the pkg-config file cargo-c installed beside the
# libraries (<libdir>/pkgconfig/proofnum.pc) for where they are and what the static library
# links (Libs.private, from rustc), so those facts have one source.

cmake_minimum_required(VERSION 3.5)

include("${CMAKE_CURRENT_LIST_DIR}/proofnumPcFile.cmake")
if(NOT _proofnum_pc_file)
  set(proofnum_FOUND FALSE)
  set(proofnum_NOT_FOUND_MESSAGE
      "proofnum.pc not found under ${_proofnum_prefix}/lib*: was the package installed with cargo cinstall and its default datadir?")
  return()
endif()

get_filename_component(_proofnum_libdir "${_proofnum_pc_file}" DIRECTORY)
get_filename_component(_proofnum_libdir "${_proofnum_libdir}" DIRECTORY)
set(_proofnum_include_dir "${_proofnum_prefix}/include/proofnum")
if(NOT EXISTS "${_proofnum_include_dir}/proofnum.h")
  set(proofnum_FOUND FALSE)
  set(proofnum_NOT_FOUND_MESSAGE "${_proofnum_include_dir}/proofnum.h is missing")
  return()
endif()

# What the static library needs besides itself: Libs.private's -l flags (rustc's
# native-static-libs), e.g. -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc.
file(STRINGS "${_proofnum_pc_file}" _proofnum_libs_private REGEX "^Libs.private:")
string(REGEX REPLACE "^Libs.private:[ ]*" "" _proofnum_libs_private "${_proofnum_libs_private}")
separate_arguments(_proofnum_libs_private UNIX_COMMAND "${_proofnum_libs_private}")
set(_proofnum_system_libs "")
foreach(_proofnum_flag IN LISTS _proofnum_libs_private)
  if(_proofnum_flag MATCHES "^-l(.+)$")
    list(APPEND _proofnum_system_libs "${CMAKE_MATCH_1}")
  endif()
endforeach()

set(_proofnum_shared "${_proofnum_libdir}/${CMAKE_SHARED_LIBRARY_PREFIX}proofnum${CMAKE_SHARED_LIBRARY_SUFFIX}")
set(_proofnum_static "${_proofnum_libdir}/${CMAKE_STATIC_LIBRARY_PREFIX}proofnum${CMAKE_STATIC_LIBRARY_SUFFIX}")

if(EXISTS "${_proofnum_shared}" AND NOT TARGET proofnum::proofnum_shared)
  add_library(proofnum::proofnum_shared SHARED IMPORTED)
  set_target_properties(proofnum::proofnum_shared PROPERTIES
    IMPORTED_LOCATION "${_proofnum_shared}"
    INTERFACE_INCLUDE_DIRECTORIES "${_proofnum_include_dir}")
endif()
if(EXISTS "${_proofnum_static}" AND NOT TARGET proofnum::proofnum_static)
  add_library(proofnum::proofnum_static STATIC IMPORTED)
  set_target_properties(proofnum::proofnum_static PROPERTIES
    IMPORTED_LOCATION "${_proofnum_static}"
    IMPORTED_LINK_INTERFACE_LANGUAGES "C"
    INTERFACE_INCLUDE_DIRECTORIES "${_proofnum_include_dir}"
    INTERFACE_LINK_LIBRARIES "${_proofnum_system_libs}")
endif()

if(NOT TARGET proofnum::proofnum)
  if(TARGET proofnum::proofnum_shared)
    set(_proofnum_default proofnum::proofnum_shared)
  elseif(TARGET proofnum::proofnum_static)
    set(_proofnum_default proofnum::proofnum_static)
  else()
    set(proofnum_FOUND FALSE)
    set(proofnum_NOT_FOUND_MESSAGE "no libproofnum library in ${_proofnum_libdir}")
    return()
  endif()
  add_library(proofnum::proofnum INTERFACE IMPORTED)
  set_target_properties(proofnum::proofnum PROPERTIES
    INTERFACE_LINK_LIBRARIES "${_proofnum_default}")
endif()

set(proofnum_INCLUDE_DIRS "${_proofnum_include_dir}")
set(proofnum_LIBRARIES proofnum::proofnum)

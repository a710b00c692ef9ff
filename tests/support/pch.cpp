// The source of the libraries that only carry the tests' precompiled headers
// (cmake/RidgepointPch.cmake): it defines nothing.

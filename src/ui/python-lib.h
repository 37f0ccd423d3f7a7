/* SPDX-License-Identifier: MIT */
/*
 * libpython3, loaded on first use: dlopen of the shared library and a table
 * of the C API entry points sonde calls. Python.h gives the types and the
 * inline helpers; nothing references a libpython symbol at link time.
 */
#ifndef SONDE_UI_PYTHON_LIB_H
#define SONDE_UI_PYTHON_LIB_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdbool.h>

/* the functions used, by their C API names */
#define PYLIB_FUNCS(X)                                                                      \
	X(Py_InitializeEx) X(Py_FinalizeEx) X(Py_IncRef) X(Py_DecRef) X(PyImport_AppendInittab) \
	X(PyModule_Create2) X(PyModule_AddObject) X(PyModule_GetDict) X(PyImport_AddModule)    \
	X(PyImport_ImportModule) X(PyRun_FileExFlags) X(PyRun_StringFlags) X(PyDict_New)       \
	X(PyDict_SetItemString) X(PyDict_GetItemString) X(PyDict_SetItem) X(PyList_New)        \
	X(PyList_Append) X(PyList_SetItem) X(PyTuple_New) X(PyTuple_SetItem) X(PyTuple_Size)   \
	X(PyTuple_GetItem) X(PyLong_FromLongLong) X(PyLong_FromUnsignedLongLong)               \
	X(PyLong_AsLongLong) X(PyUnicode_FromString) X(PyUnicode_DecodeUTF8)                   \
	X(PyUnicode_AsUTF8) X(PyBytes_FromStringAndSize) X(PyByteArray_FromStringAndSize)      \
	X(PyCapsule_New) X(PyCapsule_GetPointer) X(PyObject_CallObject) X(PyObject_GetAttrString) \
	X(PyCallable_Check) X(PyErr_Occurred) X(PyErr_Print) X(PyErr_Clear) X(PyErr_SetString) \
	X(PyErr_ExceptionMatches) X(PySys_SetObject) X(PySys_GetObject) X(PyObject_SetAttrString) \
	X(PyBool_FromLong)

#define PYLIB_DECL(name) __typeof__(name) *name;

/* struct pylib - the loaded library: call as py.PyDict_New() */
struct pylib {
	PYLIB_FUNCS(PYLIB_DECL)
	PyObject *none;		  /* Py_None */
	PyObject *exc_runtime;	  /* PyExc_RuntimeError */
	PyObject *exc_systemexit; /* PyExc_SystemExit */
	void *handle;
};

extern struct pylib py;

/*
 * pylib_load - dlopen libpython (SONDE_LIBPYTHON overrides the name) and
 * look every entry point up; once. Returns 0, or -ENOENT with the loader's
 * message in *@why (static storage).
 */
int pylib_load(const char **why);

/* pylib_none - a new reference to None */
PyObject *pylib_none(void);

#endif

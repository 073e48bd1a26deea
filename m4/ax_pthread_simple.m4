# AX_PTHREAD_SIMPLE: find -pthread for pthread_once (the opcode tables are
# compiled once, thread-safely, because the CUDA drop-ins parse modules
# from several host threads).  Written for ptxemu; Debian's gcc and clang
# both accept -pthread, so this only checks that it links.
AC_DEFUN([AX_PTHREAD_SIMPLE], [
  AC_MSG_CHECKING([whether $CC accepts -pthread])
  ax_save_CFLAGS=$CFLAGS
  ax_save_LIBS=$LIBS
  CFLAGS="$CFLAGS -pthread"
  LIBS="$LIBS -pthread"
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <pthread.h>
static pthread_once_t o = PTHREAD_ONCE_INIT; static void f(void) {}]],
                                  [[pthread_once(&o, f);]])],
    [AC_MSG_RESULT([yes])
     PTHREAD_CFLAGS=-pthread
     PTHREAD_LIBS=-pthread],
    [AC_MSG_RESULT([no])
     AC_MSG_ERROR([a working -pthread is required])])
  CFLAGS=$ax_save_CFLAGS
  LIBS=$ax_save_LIBS
  AC_SUBST([PTHREAD_CFLAGS])
  AC_SUBST([PTHREAD_LIBS])
])

/*
 * The PMI client's own header (PMI-1, PMI-2 or PMIx, as configure chose),
 * for the files that call the client: src/util/mpir_pmi.c and
 * src/nameserv/pmi/pmi_nameserv.c (patch pmi-client-header-where-used). Stock MPICH 4.0.2 includes
 * it in every file through mpir_pmi.h; only these two need it, and without
 * it every other file of a --with-pmix build preprocesses to the same text
 * as in the default build, so ccache serves them (make mpich-pmix).
 * pmix.h has inline functions that call malloc: include this header before
 * mpl.h, i.e. before mpiimpl.h.
 */
#ifndef MPIR_PMI_CLIENT_H_INCLUDED
#define MPIR_PMI_CLIENT_H_INCLUDED

#include "mpir_pmi.h"           /* mpichconf.h, and USE_PMI1_API by default */

#ifdef USE_PMI1_API
#include <pmi.h>
#elif defined(USE_PMI2_API)
#include <pmi2.h>
#elif defined(USE_PMIX_API)
#include <pmix.h>
#endif

#endif /* MPIR_PMI_CLIENT_H_INCLUDED */

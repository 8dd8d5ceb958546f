/*
 * group_avrm.h - what group_impl.c calls of group_avrm.c (MPI groups on
 * libavrm rank maps); the constructors every caller uses are in
 * mpir_group.h.
 *
 * Our file, added to the MPICH tree by patches/mpich/series. Thread safety
 * and cost: group_avrm.c's rule (lookups lock-free once the target's rank
 * index exists; constructors under the device's lock). Every function
 * returns an MPI error code (MPI_ERR_NO_MEM when a temporary or the index
 * cannot be allocated).
 */
#ifndef GROUP_AVRM_H_INCLUDED
#define GROUP_AVRM_H_INCLUDED

/* ranks[i] = the rank in g2 of member i of g1, MPI_UNDEFINED where g2 has
 * none: one batch translation into g2's map. ranks: g1->size ints. O(g1
 * size) into a regular g2 or one with a rank index. */
int MPII_Group_ranks_in(MPIR_Group * g1, MPIR_Group * g2, int *ranks);

/* mapping[0..*k_out) = the members of g1 that are (want = 1) or are not
 * (want = 0) in g2, in g1's order. mapping: g1->size ints. */
int MPII_Group_select_members(MPIR_Group * g1, MPIR_Group * g2, int want, int *mapping,
                              int *k_out);

/* The group of those members (MPI_GROUP_EMPTY when none): MPI_Group_
 * difference (want = 0) and MPI_Group_intersection (want = 1). */
int MPII_Group_select(MPIR_Group * g1, MPIR_Group * g2, int want, MPIR_Group ** new_group_ptr);

/* MPI_Group_compare: MPI_IDENT, MPI_SIMILAR or MPI_UNEQUAL. O(1) for one
 * map or two progressions; else one translation, scratch on the stack
 * below 256 members. */
int MPII_Group_compare(MPIR_Group * group_ptr1, MPIR_Group * group_ptr2, int *result);

/* The nnew members of g whose flag is 0, in rank order (flags: g->size
 * bytes), or MPI_GROUP_EMPTY when nnew is 0: MPI_Group_excl. */
int MPII_Group_unflagged(MPIR_Group * group_ptr, const char *flags, int nnew,
                         MPIR_Group ** new_group_ptr);

/* The ranks named by n (first, last, stride) triples, in order, into out
 * (only counted when out is NULL); returns the count. The ranges are valid
 * (MPIR_Group_check_valid_ranges): stride != 0. */
int MPII_Group_range_ranks(int n, int ranges[][3], int *out);

#endif /* GROUP_AVRM_H_INCLUDED */

C     freduce.f: the reduction from the field report, through mpif.h in
C     fixed form as old codes write it: MPI_Allreduce of a DOUBLE
C     PRECISION with MPI_SUM over the world, then over the halves of an
C     MPI_Comm_split and the reverse-ordered world (a map that is not the
C     identity); plus INTEGER, REAL, DOUBLE COMPLEX, LOGICAL and MAXLOC
C     over the same communicators, each against the expected value.
      PROGRAM FREDUCE
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, WRANK, WSIZE, COMM, NERR, TOTAL, K
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, WRANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, WSIZE, IERR)
      NERR = 0
      CALL CHECK(MPI_COMM_WORLD, 0, WSIZE - 1, WRANK, NERR)
C     halves: world ranks [0, WSIZE/2) and [WSIZE/2, WSIZE)
      K = 0
      IF (WRANK .GE. WSIZE / 2) K = 1
      CALL MPI_COMM_SPLIT(MPI_COMM_WORLD, K, WRANK, COMM, IERR)
      IF (K .EQ. 0) CALL CHECK(COMM, 0, WSIZE / 2 - 1, WRANK, NERR)
      IF (K .EQ. 1) CALL CHECK(COMM, WSIZE / 2, WSIZE - 1, WRANK, NERR)
      CALL MPI_COMM_FREE(COMM, IERR)
C     reversed: same members as the world, reversed order
      CALL MPI_COMM_SPLIT(MPI_COMM_WORLD, 0, -WRANK, COMM, IERR)
      CALL CHECK(COMM, 0, WSIZE - 1, WRANK, NERR)
      CALL MPI_COMM_FREE(COMM, IERR)
      CALL MPI_ALLREDUCE(NERR, TOTAL, 1, MPI_INTEGER, MPI_SUM,
     &                   MPI_COMM_WORLD, IERR)
      IF (WRANK .EQ. 0) THEN
         IF (TOTAL .EQ. 0) THEN
            PRINT *, 'No Errors'
         ELSE
            PRINT *, 'Found ', TOTAL, ' errors'
         END IF
      END IF
      CALL MPI_FINALIZE(IERR)
      IF (TOTAL .NE. 0) STOP 1
      END

C     Reductions over COMM, whose members are world ranks LO..HI.
      SUBROUTINE CHECK(COMM, LO, HI, WRANK, NERR)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER COMM, LO, HI, WRANK, NERR, IERR, N, IS, IR
      DOUBLE PRECISION X, Y, XL(2), YL(2)
      REAL R, RR
      DOUBLE COMPLEX Z, ZR
      LOGICAL L, LR
      N = HI - LO + 1
      X = WRANK
      CALL MPI_ALLREDUCE(X, Y, 1, MPI_DOUBLE_PRECISION, MPI_SUM,
     &                   COMM, IERR)
      IF (Y .NE. DBLE(N) * DBLE(LO + HI) / 2D0) CALL BAD('DP SUM', NERR)
      IS = 2 * WRANK
      CALL MPI_ALLREDUCE(IS, IR, 1, MPI_INTEGER, MPI_SUM, COMM, IERR)
      IF (IR .NE. N * (LO + HI)) CALL BAD('INTEGER SUM', NERR)
      R = WRANK
      CALL MPI_ALLREDUCE(R, RR, 1, MPI_REAL, MPI_MIN, COMM, IERR)
      IF (RR .NE. REAL(LO)) CALL BAD('REAL MIN', NERR)
      Z = DCMPLX(1D0, DBLE(WRANK))
      CALL MPI_ALLREDUCE(Z, ZR, 1, MPI_DOUBLE_COMPLEX, MPI_SUM, COMM,
     &                   IERR)
      IF (ZR .NE. DCMPLX(DBLE(N), DBLE(N) * DBLE(LO + HI) / 2D0))
     &   CALL BAD('DOUBLE COMPLEX SUM', NERR)
      L = WRANK .GE. LO
      CALL MPI_ALLREDUCE(L, LR, 1, MPI_LOGICAL, MPI_LAND, COMM, IERR)
      IF (.NOT. LR) CALL BAD('LOGICAL LAND', NERR)
      XL(1) = WRANK
      XL(2) = WRANK
      CALL MPI_ALLREDUCE(XL, YL, 1, MPI_2DOUBLE_PRECISION, MPI_MAXLOC,
     &                   COMM, IERR)
      IF (YL(1) .NE. DBLE(HI) .OR. YL(2) .NE. DBLE(HI))
     &   CALL BAD('2DOUBLE_PRECISION MAXLOC', NERR)
      END

      SUBROUTINE BAD(WHAT, NERR)
      CHARACTER*(*) WHAT
      INTEGER NERR
      NERR = NERR + 1
      WRITE (0, *) 'wrong result: ', WHAT
      END

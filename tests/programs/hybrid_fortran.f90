! Designed hybrid MPI+OpenMP program in Fortran (mpif-h bindings through `use mpi`): each rank
! runs a balanced parallel loop, then all ranks meet in MPI_Allreduce. Rank 1 has twice rank 0's
! work, so rank 0 waits in MPI (docs/mpi.md, "Fortran"): its wait must be MPI time, not serial code.
program hybrid_fortran
  use mpi
  implicit none
  integer :: ierr, rank, provided
  integer(8) :: i, n
  double precision :: local, total
  call MPI_Init_thread(MPI_THREAD_FUNNELED, provided, ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  n = 60000000_8 * (rank + 1)
  local = 0d0
!$omp parallel do reduction(+:local) schedule(static)
  do i = 1, n
    local = local + 1d0 / dble(i)
  end do
!$omp end parallel do
  call MPI_Allreduce(local, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  print '(a,i0,a,f0.3)', 'rank ', rank, ' total=', total
  call MPI_Finalize(ierr)
end program hybrid_fortran

! shared_lock.c in Fortran (gfortran): every thread does some work of its own, then a longer
! part under one shared omp lock, so the threads queue for it (expected cause: lock_contention).
! gfortran calls libgomp's Fortran entry points (omp_set_lock_ ...).
program shared_lock_fortran
  use omp_lib
  implicit none
  integer(omp_lock_kind) :: lock
  integer :: i
  double precision :: total, local
  total = 0
  call omp_init_lock(lock)
!$omp parallel private(i, local)
  do i = 1, 400
    local = work(100000)
    call omp_set_lock(lock)
    total = total + work(400000) + local
    call omp_unset_lock(lock)
  end do
!$omp end parallel
  call omp_destroy_lock(lock)
  print '(a, f0.3)', 'total=', total
contains
  double precision function work(n)
    integer, intent(in) :: n
    integer :: k
    work = 0
    do k = 0, n - 1
      work = work + 1d0 / dble(k + 1)
    end do
  end function work
end program shared_lock_fortran

! Designed shape: a subroutine with code after `!$omp end parallel do`, called 10 times, and a
! second one called 20 times. gfortran used to be reported at the subroutine's `end` or at the
! statement after the region.
module work
  implicit none
  integer, parameter :: n = 65536
  double precision :: a(n), b(n)
contains
  subroutine scale_a(f)
    double precision, intent(in) :: f
    integer :: i
    double precision :: s
!$omp parallel do schedule(dynamic, 1024)
    do i = 1, n
      a(i) = a(i) * f + i
    end do
!$omp end parallel do
    s = sum(a)
    b(1) = b(1) + s
  end subroutine scale_a

  subroutine shift_b(f)
    double precision, intent(in) :: f
    integer :: i
!$omp parallel do
    do i = 1, n
      b(i) = b(i) + f
    end do
!$omp end parallel do
    b(2) = b(2) * 0.5d0
  end subroutine shift_b
end module work

program after_region
  use work
  implicit none
  integer :: it
  a = 1
  b = 0
  do it = 1, 30
    if (mod(it, 3) == 0) then
      call scale_a(1.0001d0)
    else
      call shift_b(0.5d0)
    end if
  end do
  print '(2es14.6)', a(n), b(2)
end program after_region

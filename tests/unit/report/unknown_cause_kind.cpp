// Compiles only when CAUSE_KIND names an entry of the table of causes: the way a detector names
// the cause it found.
#include "report/causes.h"

struct Finding {
  ompscope::report::CauseKind kind;
  double gain_s;
};

Finding detect(double gain_s) { return Finding{CAUSE_KIND, gain_s}; }

int main() { return detect(1).kind.name().empty(); }

/* Links the installed OMPT tool library (ompscope::tool); run, it loads it. */
int main(void) { return 0; }

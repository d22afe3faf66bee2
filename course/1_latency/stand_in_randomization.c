/* stand_in_randomization.c - what 1_latency's grader links in place of the
   randomization exercise (2_randomization), in the instructor's program and
   in a kit alike: NOT the reference, and visibly not a sampler.  The delay
   line's integration check only fixes its latencies (s2r_dist_fixed), so a
   FIXED distribution gives its value and every other kind gives NAN; the
   episode's table takes each enabled entry's value from it.  With this in
   place no program that runs a 1_latency submission holds 2_randomization's
   reference (and 2_randomization, which needs the delay line, is cut from
   the cycle). */
/* >> stub begin */
S2RDEF double s2r_dist_sample(const s2r_dist* d, s2r_rng* rng) {
    (void)rng;
    return d->kind == S2R_DIST_FIXED ? d->mean : NAN;   /* a stand-in: FIXED only */
}

S2RDEF void s2r_randomization_sample(const s2r_randomization* r, s2r_rng* rng,
                                     double values[S2R_PARAM_COUNT]) {
    int p;
    for (p = 0; p < S2R_PARAM_COUNT; p++)
        values[p] = r->p[p].enabled ? s2r_dist_sample(&r->p[p].dist, rng)
                                    : r->p[p].mode == S2R_APPLY_SCALE ? 1.0 : 0.0;
}
/* >> stub end */

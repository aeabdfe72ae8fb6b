# Run: Rscript tests/data/stats/groups-serial.R (R 4.2.2, Debian 12) -> 0.685380116959064 0.782457185482595 37 11.1682839254633
# hq-correlate --when: the serial correlation behind two groups
# (tests/unit/correlate.c test_groups_serial). Days 0..39 but 10, 11, 25;
# the condition holds on days with floor(day / 5) odd; B = 10 + 3 cond +
# round(2 sin(day / 3), 2).
days <- setdiff(0:39, c(10, 11, 25))
cond <- rep(NA, 40); b <- rep(NA, 40)
cond[days + 1] <- as.numeric(floor(days / 5) %% 2 == 1)
b[days + 1] <- 10 + 3 * cond[days + 1] + round(2 * sin(days / 3), 2)
r1 <- acf(cond, na.action = na.pass, plot = FALSE)$acf[2]
r2 <- acf(b, na.action = na.pass, plot = FALSE)$acf[2]
n <- length(days)
neff <- min(max(n * (1 - r1 * r2) / (1 + r1 * r2), 2), n)
cat(sprintf("%.15g %.15g %d %.15g\n", r1, r2, n, neff))

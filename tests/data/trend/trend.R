# Writes the daily series in this directory and expected.txt, the values
# tests/unit/trend.c checks lib/analyze/trend.c against. Run from this
# directory with R >= 4 (Debian: r-base-core):
#
#     Rscript trend.R
#
# The data files (DAY VALUE, one a line, days ascending) are written once
# and kept; the test itself needs no R. The Theil-Sen slope and Gilbert's
# interval are hq-report(1)'s formula (trend METRIC) written out
# here; tau, z and p are R's cor.test(method = "kendall", exact = FALSE);
# acf1 and n_eff as lib/analyze/trend.c's header says (acf with na.pass).
# expected.txt lines: FILE STATISTIC VALUE (17 significant digits, NA for
# none).

# Beside them, expected-store.txt: hq-report trend METRIC over a store
# (tests/cli/4500-report-trend.t imports store-*.jsonl, written here once
# too): the samples' daily values by the written rule (the local days of
# America/Los_Angeles; resting heart rate the day's mean, steps its sum;
# a line written twice is one sample), then the same statistics.

options(digits = 17)
out <- file("expected.txt", "w")
put <- function(f, what, v) writeLines(paste(f, what,
  if (is.na(v)) "NA" else sprintf("%.17g", v)), out)

series <- list()
series[["ties.tsv"]] <- data.frame(t = 0:11,
  v = c(60, 61, 61, 59, 62, 62, 62, 60, 63, 61, 64, 63))
series[["gaps.tsv"]] <- data.frame(t = c(0, 1, 2, 5, 9, 10, 11, 20, 21, 30, 31, 33, 40, 41, 60),
  v = c(7.2, 6.9, 7.5, 6.1, 7.0, 7.8, 6.4, 7.7, 7.1, 8.0, 6.6, 7.9, 7.4, 8.3, 7.6))
series[["n2.tsv"]] <- data.frame(t = c(100, 103), v = c(55, 54.5))
series[["n3.tsv"]] <- data.frame(t = c(19000, 19001, 19003), v = c(55, 54, 57))
series[["n4.tsv"]] <- data.frame(t = c(19000, 19001, 19002, 19006), v = c(70.1, 70.4, 70.4, 69.8))
series[["monotone.tsv"]] <- data.frame(t = 0:19, v = 50 + (0:19)^1.5 / 10)
series[["linear.tsv"]] <- data.frame(t = 0:29, v = 62 + 0.1 * (0:29))
series[["constant.tsv"]] <- data.frame(t = 0:9, v = rep(58, 10))
set.seed(20261127)
t <- sort(sample(0:439, 400))
series[["noisy400.tsv"]] <- data.frame(t = t + 20000,
  v = round(55 + 0.004 * t + rnorm(400, sd = 2.5), 1))
t <- 0:3649
series[["long3650.tsv"]] <- data.frame(t = t + 16000,
  v = round(58 + 0.0008 * t + 2 * sin(t / 58) + rnorm(3650, sd = 2), 1))
t <- sort(sample(0:900, 700))
series[["flat700.tsv"]] <- data.frame(t = t, v = round(rnorm(700, 48, 9)))

for (f in names(series)) {
  d <- series[[f]]
  if (!file.exists(f))
    write.table(d, f, sep = "\t", row.names = FALSE, col.names = FALSE)
  d <- read.table(f, col.names = c("t", "v"))
  t <- d$t; v <- d$v; n <- length(v)
  if (n < 3) {
    # cor.test has no z or p below 3 values (its var_S divides by n - 2):
    # hq makes no trend of them either.
    writeLines(paste(f, "status too_few"), out)
    next
  }
  dv <- outer(v, v, "-"); dt <- outer(t, t, "-")
  s <- (dv / dt)[lower.tri(dv)]          # (v[j] - v[i]) / (t[j] - t[i]), i < j
  N <- length(s)
  u <- as.numeric(table(v))
  var_s <- (n * (n - 1) * (2 * n + 5) - sum(u * (u - 1) * (2 * u + 5))) / 18
  C <- qnorm(0.975) * sqrt(var_s)
  m1 <- round((N - C) / 2); m2 <- round((N + C) / 2) + 1
  s <- sort(s)
  put(f, "n", n)
  put(f, "n_slopes", N)
  put(f, "slope_week", 7 * median(s))
  put(f, "var_s", var_s)
  put(f, "m1", m1)
  put(f, "m2", m2)
  put(f, "ci_low", if (m1 >= 1 && m1 <= N) 7 * s[m1] else NA)
  put(f, "ci_high", if (m2 >= 1 && m2 <= N) 7 * s[m2] else NA)
  ct <- suppressWarnings(cor.test(t, v, method = "kendall", exact = FALSE))
  put(f, "tau", unname(ct$estimate))
  put(f, "z", unname(ct$statistic))
  put(f, "p", ct$p.value)
  # The detrended values' lag-1 autocorrelation, the missing days NA, and
  # the independent days it leaves: n (1 - r) / (1 + r) in [2, n], r > 0.
  x <- rep(NA_real_, max(t) - min(t) + 1)
  x[t - min(t) + 1] <- v - median(s) * t
  r1 <- acf(x, na.action = na.pass, plot = FALSE)$acf[2]
  put(f, "acf1", r1)
  put(f, "n_eff", if (is.na(r1) || r1 <= 0) n else min(n, max(2, n * (1 - r1) / (1 + r1))))
}
close(out)

# ---- hq-report trend METRIC over a store -------------------------------
out <- file("expected-store.txt", "w")
tz <- "America/Los_Angeles"
set.seed(20261128)
days <- sort(sample(0:179, 160))          # 2025-01-01 on, 20 days missing
base <- as.numeric(as.POSIXct("2025-01-01 00:00:00", tz = tz))
local_t <- function(d, h) as.numeric(as.POSIXct(format(as.Date("2025-01-01") + d),
  tz = tz)) + h * 3600
if (!file.exists("store-rhr.jsonl")) {
  l <- character(0)
  # 00:15, 07:30, 12:00, 23:45 local; halves, so that a day's mean is
  # exact in binary (ties are equal in R and in hq alike)
  for (d in days) for (h in c(0.25, 7.5, 12, 23.75)) {
    v <- round(2 * (56 + 0.012 * d + 1.5 * sin(d / 9) + rnorm(1, sd = 1.6))) / 2
    l <- c(l, sprintf('{"metric":"resting_heart_rate","start":%.0f,"value":%s,"unit":"count/min","source":"watch"}',
      local_t(d, h), sprintf("%.1f", v)))
  }
  l <- c(l, l[seq(5, length(l), by = 40)])          # written twice: one sample
  writeLines(l, "store-rhr.jsonl")
}
if (!file.exists("store-steps.jsonl")) {
  l <- character(0)
  for (d in days) for (h in c(8, 12, 18)) {
    v <- max(0, round(2500 - 3 * d + rnorm(1, sd = 900)))
    s0 <- local_t(d, h)
    l <- c(l, sprintf('{"metric":"steps","start":%.0f,"end":%.0f,"value":%.0f,"unit":"count","source":"phone"}',
      s0, s0 + 1800, v))
  }
  writeLines(l, "store-steps.jsonl")
}
daily <- function(f, agg) {
  l <- unique(readLines(f))
  start <- as.numeric(sub('.*"start":([0-9]+).*', "\\1", l))
  v <- as.numeric(sub('.*"value":([0-9.]+).*', "\\1", l))
  day <- as.numeric(as.Date(as.POSIXct(start, origin = "1970-01-01", tz = "UTC"), tz = tz))
  a <- tapply(v, day, agg)
  data.frame(t = as.numeric(names(a)), v = as.numeric(a))
}
for (case in list(list("store-rhr.jsonl", "resting_heart_rate", mean),
    list("store-steps.jsonl", "steps", sum))) {
  d <- daily(case[[1]], case[[3]])
  t <- d$t; v <- d$v; n <- length(v); f <- case[[2]]
  dv <- outer(v, v, "-"); dt <- outer(t, t, "-")
  s <- sort((dv / dt)[lower.tri(dv)])
  N <- length(s)
  u <- as.numeric(table(v))
  var_s <- (n * (n - 1) * (2 * n + 5) - sum(u * (u - 1) * (2 * u + 5))) / 18
  C <- qnorm(0.975) * sqrt(var_s)
  m1 <- round((N - C) / 2); m2 <- round((N + C) / 2) + 1
  ct <- suppressWarnings(cor.test(t, v, method = "kendall", exact = FALSE))
  writeLines(paste(f, "from", format(as.Date(min(t), origin = "1970-01-01"))), out)
  writeLines(paste(f, "to", format(as.Date(max(t), origin = "1970-01-01"))), out)
  put(f, "n", n)
  put(f, "slope_per_week", 7 * median(s))
  put(f, "ci_low", 7 * s[m1])
  put(f, "ci_high", 7 * s[m2])
  put(f, "tau", unname(ct$estimate))
  put(f, "p", ct$p.value)
}
close(out)

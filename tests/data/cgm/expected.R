# Expected CGM metrics for tests/unit/cgm.c, computed with base R from the
# formulas (iglu itself is not installed here; these are its formulas, see
# include/hq/cgm.h). Run from the top of the tree:
#   Rscript tests/data/cgm/expected.R > tests/data/cgm/expected.txt
# Every number is printed with 17 significant digits.
metrics <- function(gl, time = NULL) {
  f <- log(gl)^1.084 - 5.381
  n <- length(gl)
  p <- function(x) 100 * sum(x) / n
  m <- mean(gl); s <- sd(gl)
  tbr <- p(gl < 70); tbr2 <- p(gl < 54); tar <- p(gl > 180); tar2 <- p(gl > 250)
  gri <- min(100, 3 * tbr2 + 2.4 * (tbr - tbr2) + 1.6 * tar2 + 0.8 * (tar - tar2))
  out <- c(readings = n, mean = m, sd = s, cv = 100 * s / m,
    gmi = 3.31 + 0.02392 * m,
    tir = p(gl >= 70 & gl <= 180), titr = p(gl >= 70 & gl <= 140),
    tbr = tbr, tbr2 = tbr2, tar = tar, tar2 = tar2,
    j_index = 0.001 * (m + s)^2,
    lbgi = 22.77 * sum(pmin(f, 0)[gl < 112.5]^2) / n,
    hbgi = 22.77 * sum(pmax(f, 0)[gl >= 112.5]^2) / n,
    gri = gri)
  if (!is.null(time)) {
    time <- sort(time)
    dt0 <- as.double(round(median(diff(as.numeric(time)) / 60)))
    span <- as.numeric(max(time)) - as.numeric(min(time))
    out <- c(out, interval = dt0,
      coverage_pct = min(100, 100 * n / (round(span / 60 / dt0) + 1)))
  }
  out
}
show <- function(name, v) {
  cat(name, paste(names(v), sprintf("%.17g", v), sep = "=", collapse = " "),
    "\n")
}
d <- read.csv("tests/data/cgm/example_data_5_subject.csv")
d$time <- as.POSIXct(d$time, tz = "UTC")
for (id in unique(d$id)) {
  s <- d[d$id == id, ]
  show(gsub(" ", "_", id), metrics(s$gl, s$time))
}
# Hand-worked series (tests/unit/cgm.c builds the same ones).
show("series_a", metrics(c(40, 55, 69, 70, 100, 112, 113, 140, 141, 180, 181, 250, 251, 400)))
show("series_b", metrics(c(120.5, 88.25, 300, 65.125, 54, 53.5)))
show("series_c", metrics(rep(c(100, 150, 200), 5)))
# AGP percentiles (R's default quantile, type 7) of small slots.
q <- function(x) quantile(x, c(0.05, 0.25, 0.5, 0.75, 0.95))
show("agp_a", q(c(100, 150, 200, 120, 120, 90)))
show("agp_b", q(c(111)))
show("agp_c", q(c(54.04, 180.16, 99.5, 70.2, 70.2, 250, 39, 401, 140)))
# The AGP of Subject 1 at 00:00-00:15 and 12:00-12:15 (times as written).
s1 <- d[d$id == "Subject 1", ]
mins <- as.numeric(format(s1$time, "%H")) * 60 + as.numeric(format(s1$time, "%M"))
show("agp_s1_0000", c(n = sum(mins < 15), q(s1$gl[mins < 15])))
show("agp_s1_1200", c(n = sum(mins >= 720 & mins < 735), q(s1$gl[mins >= 720 & mins < 735])))
# The real Clarity export (tests/fixtures/cgm, see tests/fixtures/README.md):
# every EGV row, Low as 39 and High as 401 (cgmfile.h), times are local wall
# times (no DST change inside it in America/Los_Angeles, so wall-clock gaps
# are real ones).
dx <- read.csv("tests/fixtures/cgm/dexcom-clarity-example.csv",
  check.names = FALSE, colClasses = "character")
dx <- dx[dx[[3]] == "EGV" & dx[[2]] != "", ]
gl <- ifelse(dx[[8]] == "Low", 39, ifelse(dx[[8]] == "High", 401,
  suppressWarnings(as.numeric(dx[[8]]))))
tm <- as.POSIXct(dx[[2]], format = "%Y-%m-%dT%H:%M:%S", tz = "UTC")
show("clarity", metrics(gl, tm))
cat("clarity_days n=", length(unique(substr(dx[[2]], 1, 10))), "\n", sep = "")
mins <- as.numeric(substr(dx[[2]], 12, 13)) * 60 + as.numeric(substr(dx[[2]], 15, 16))
show("clarity_agp_0000", c(n = sum(mins < 15), q(gl[mins < 15])))
show("clarity_agp_1445", c(n = sum(mins >= 885 & mins < 900), q(gl[mins >= 885 & mins < 900])))
# Sessions: per transmitter, a new one after a gap of 2 hours or more.
tx <- dx[[14]]
o <- order(tx, tm)
gap <- c(Inf, diff(as.numeric(tm[o])))
new <- c(TRUE, tx[o][-1] != tx[o][-length(o)]) | gap >= 7200
cat("clarity_sessions n=", sum(new), "\n", sep = "")

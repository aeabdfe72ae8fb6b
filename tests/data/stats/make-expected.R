# Writes the data sets in this directory and expected.txt, the values
# tests/unit/stats_inference.c checks lib/base/stats.c against. Run from this
# directory with R >= 4 (Debian: r-base-core):
#
#     Rscript make-expected.R
#
# The data files are written once and kept; the test itself needs no R.
# expected.txt lines: FILE STATISTIC VALUE (17 significant digits), or
# fn NAME ARGS... VALUE for the distribution functions.

options(digits = 17)
out <- file("expected.txt", "w")
put <- function(...) writeLines(paste(...), out)
num <- function(v) sprintf("%.17g", v)

pairs <- list()
pairs[["anscombe1.tsv"]] <- data.frame(x = anscombe$x1, y = anscombe$y1)
pairs[["anscombe2.tsv"]] <- data.frame(x = anscombe$x2, y = anscombe$y2)
pairs[["anscombe3.tsv"]] <- data.frame(x = anscombe$x3, y = anscombe$y3)
pairs[["anscombe4.tsv"]] <- data.frame(x = anscombe$x4, y = anscombe$y4)
pairs[["ties.tsv"]] <- data.frame(x = c(1, 2, 2, 3, 4, 4, 4, 5, 6, 7, 7, 8),
                                  y = c(3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8))
pairs[["n3.tsv"]] <- data.frame(x = c(1, 2, 4), y = c(2, 1, 5))
pairs[["n4.tsv"]] <- data.frame(x = c(1, 2, 4, 3), y = c(2, 1, 5, 7))
pairs[["perfect.tsv"]] <- data.frame(x = 1:10, y = 2 * (1:10) + 3)
pairs[["perfect-neg.tsv"]] <- data.frame(x = c(0.5, 1.5, 2, 7, 3.25, 9),
                                         y = -0.5 * c(0.5, 1.5, 2, 7, 3.25, 9) + 7)
pairs[["constant-y.tsv"]] <- data.frame(x = c(3, 1, 4, 1, 5, 9, 2, 6), y = rep(5, 8))
pairs[["constant-x.tsv"]] <- data.frame(x = rep(7.5, 6), y = c(1, 2, 3, 5, 8, 13))
pairs[["negative.tsv"]] <- data.frame(
  x = c(7.1, 6.2, 8.4, 5.9, 7.7, 6.8, 9.0, 5.5, 7.3, 6.0, 8.8, 6.5),   # sleep h
  y = c(38, 52, 31, 55, 40, 47, 29, 61, 36, 58, 33, 44))               # resting HR
set.seed(20240801)
x <- 1:500
pairs[["tiny-p.tsv"]] <- data.frame(x = x, y = round(x + rnorm(500, sd = 62), 3))
x <- round(rnorm(2000, 7, 1.1), 3)
pairs[["large-n.tsv"]] <- data.frame(x = x, y = round(60 - 1.5 * x + rnorm(2000, sd = 4), 3))
x <- round(rnorm(300), 4)
pairs[["independent.tsv"]] <- data.frame(x = x, y = round(rnorm(300), 4))

for (f in names(pairs)) {
  d <- pairs[[f]]
  if (!file.exists(f))
    write.table(d, f, sep = "\t", row.names = FALSE, col.names = FALSE)
  d <- read.table(f, col.names = c("x", "y"))
  if (sd(d$x) == 0) { put(f, "status constant_x"); next }
  if (sd(d$y) == 0) { put(f, "status constant_y"); next }
  ct <- cor.test(d$x, d$y)
  r <- unname(ct$estimate)
  put(f, "pearson.r", num(r))
  if (1 - abs(r) <= 8 * .Machine$double.eps) {
    # A straight line: R's p is that of the rounding error in r (t = 2^27
    # for 1:10); lib/base/stats.c reports p = 0 and says the line is perfect.
    put(f, "pearson.perfect 1")
  } else {
    put(f, "pearson.p", num(ct$p.value))
    if (!is.null(ct$conf.int)) {
      put(f, "pearson.ci_low", num(ct$conf.int[1]))
      put(f, "pearson.ci_high", num(ct$conf.int[2]))
    } else {
      put(f, "pearson.no_ci 1")
    }
  }
  st <- cor.test(d$x, d$y, method = "spearman", exact = FALSE)
  rho <- unname(st$estimate)
  put(f, "spearman.rho", num(rho))
  if (1 - abs(rho) > 8 * .Machine$double.eps)
    put(f, "spearman.p", num(st$p.value))
  co <- coef(lm(y ~ x, data = d))
  put(f, "lm.intercept", num(co[1]))
  put(f, "lm.slope", num(co[2]))
}

# Two groups: column 1 names the group (x or y), column 2 the value.
groups <- list()
groups[["welch-sleep.tsv"]] <- list(x = sleep$extra[sleep$group == 2],
                                    y = sleep$extra[sleep$group == 1])
groups[["welch-unequal.tsv"]] <- list(x = c(6.1, 5.4, 6.8, 5.9, 6.3, 7.0, 5.2),
                                      y = c(7.4, 7.9, 6.8, 7.7, 8.1, 7.2, 7.5, 6.9, 8.4, 7.8, 7.6, 7.1, 8.0))
groups[["welch-one-constant.tsv"]] <- list(x = c(5, 5, 5, 5, 5), y = c(4.1, 3.9, 4.4, 4.0, 3.7, 4.2))
set.seed(7)
groups[["welch-tiny-p.tsv"]] <- list(x = round(rnorm(400, 10, 1), 3), y = round(rnorm(350, 11.5, 2), 3))
groups[["welch-constant.tsv"]] <- list(x = c(3, 3, 3), y = c(3, 3, 3, 3))
for (f in names(groups)) {
  if (!file.exists(f)) {
    g <- groups[[f]]
    write.table(data.frame(g = c(rep("x", length(g$x)), rep("y", length(g$y))),
                           v = c(g$x, g$y)), f, sep = "\t", row.names = FALSE,
                col.names = FALSE, quote = FALSE)
  }
  d <- read.table(f, col.names = c("g", "v"))
  x <- d$v[d$g == "x"]; y <- d$v[d$g == "y"]
  tt <- tryCatch(t.test(x, y, var.equal = FALSE), error = function(e) NULL)
  if (is.null(tt)) { put(f, "status constant"); next }
  put(f, "welch.mean_x", num(mean(x)))
  put(f, "welch.mean_y", num(mean(y)))
  put(f, "welch.median_x", num(median(x)))
  put(f, "welch.median_y", num(median(y)))
  put(f, "welch.diff", num(mean(x) - mean(y)))
  put(f, "welch.t", num(unname(tt$statistic)))
  put(f, "welch.df", num(unname(tt$parameter)))
  put(f, "welch.p", num(tt$p.value))
  nx <- length(x); ny <- length(y)
  sp <- sqrt(((nx - 1) * var(x) + (ny - 1) * var(y)) / (nx + ny - 2))
  put(f, "welch.g", num((mean(x) - mean(y)) / sp * (1 - 3 / (4 * (nx + ny) - 9))))
}

# Benjamini-Hochberg, with ties and a p of 1.
p <- c(0.01, 0.04, 0.03, 0.5, 0.001, 0.04, 0.2, 1, 0.0001, 0.049, 0.3, 0.04)
if (!file.exists("bh.txt")) writeLines(format(p, digits = 17), "bh.txt")
p <- scan("bh.txt", quiet = TRUE)
adj <- p.adjust(p, method = "BH")
for (i in seq_along(adj)) put("bh.txt", paste0("bh.", i), num(adj[i]))

# Serial correlation: daily series with gaps, column 1 the day number, 2
# and 3 the two series (x, y). The lag-1 autocorrelation is R's acf() on
# the series laid on every day from the first to the last, the missing
# ones NA (na.pass: only consecutive days are neighbours); n_eff is
# Bretherton et al.'s n (1 - r1 r2) / (1 + r1 r2), clamped to [2, n].
lag1 <- function(day, v) {
  grid <- rep(NA_real_, max(day) - min(day) + 1)
  grid[day - min(day) + 1] <- v
  acf(grid, lag.max = 1, plot = FALSE, na.action = na.pass)$acf[2]
}
n_eff <- function(n, r1, r2) {
  if (is.na(r1) || is.na(r2)) return(n)
  min(n, max(2, n * (1 - r1 * r2) / (1 + r1 * r2)))
}
serial <- list()
set.seed(20261123)
day <- setdiff(1:150, c(17, 18, 40, 77, 78, 79, 120))  # a week away, some days off
x <- arima.sim(list(ar = 0.8), 150)
y <- 0.5 * x + arima.sim(list(ar = 0.7), 150)
serial[["lag1-ar.tsv"]] <- data.frame(day = day, x = round(x[day], 4), y = round(y[day], 4))
serial[["lag1-gaps.tsv"]] <- data.frame(
  day = c(1, 2, 3, 5, 6, 9, 10, 11, 12, 14, 20, 21),
  x = c(7.1, 6.8, 6.9, 7.5, 7.7, 6.2, 6.0, 6.4, 6.6, 7.9, 7.2, 7.0),   # sleep h
  y = c(52, 54, 55, 49, 48, 58, 60, 57, 56, 47, 51, 53))               # resting HR
day <- 1:60
x <- round(rnorm(60), 4)
serial[["lag1-white.tsv"]] <- data.frame(day = day, x = x, y = round(0.6 * x + rnorm(60, sd = 0.8), 4))
serial[["lag1-opposite.tsv"]] <- data.frame(day = 1:20, x = rep(c(1, -1), 10) + round(rnorm(20, sd = 0.2), 4),
                                            y = round(cumsum(rnorm(20)), 4))
serial[["lag1-none.tsv"]] <- data.frame(day = seq(1, 39, by = 2), x = round(rnorm(20), 4),
                                        y = round(rnorm(20), 4))
serial[["lag1-strong.tsv"]] <- data.frame(day = 1:12, x = 1:12 + c(0, 0.1), y = 12:1 + c(0.2, 0))
for (f in names(serial)) {
  if (!file.exists(f))
    write.table(serial[[f]], f, sep = "\t", row.names = FALSE, col.names = FALSE)
  d <- read.table(f, col.names = c("day", "x", "y"))
  r1 <- lag1(d$day, d$x)
  r2 <- lag1(d$day, d$y)
  put(f, "acf.x", if (is.na(r1)) "NA" else num(r1))
  put(f, "acf.y", if (is.na(r2)) "NA" else num(r2))
  put(f, "n_eff", num(n_eff(nrow(d), r1, r2)))
}
# n_eff at its bounds: 2 when r1 r2 is near 1, n when it is negative.
for (a in list(c(100, 0.9, 0.9), c(365, 0.6, 0.45), c(10, 0.95, 0.95), c(50, -0.5, 0.5),
               c(30, 1, 1), c(40, -1, 1)))
  put("fn n_eff", num(a[1]), num(a[2]), num(a[3]), num(n_eff(a[1], a[2], a[3])))

# Average ranks.
v <- c(10, 20, 10, 30, 20, 10, 5)
r <- rank(v)
put("fn ranks", paste(v, collapse = ","), paste(num(r), collapse = ","))

# The distributions, tails included. pt(-100, 500) underflows to 0 in R.
for (p in c(0.975, 0.5, 0.3, 0.025, 1e-10, 1e-100, 1e-300, 0.999999))
  put("fn qnorm", num(p), num(qnorm(p)))
for (a in list(c(-2.5, 10), c(1.3, 3), c(-1e-3, 3), c(0.7, 1), c(-0.7, 2.5),
               c(-2.5, 1e6), c(-40, 500), c(-60, 500), c(-100, 500),
               c(3.2, 17.4), c(-8, 6.25), c(-31.6, 98.3)))
  put("fn pt", num(a[1]), num(a[2]), num(pt(a[1], a[2])))
for (a in list(c(0.3, 2, 5), c(0.999, 0.5, 2), c(0.2, 1e5, 0.5), c(0.3, 1e5, 0.5),
               c(0.5, 250, 0.5), c(0.01, 3.5, 400), c(0.9, 12, 14), c(1e-5, 0.5, 0.5)))
  put("fn log_pbeta", num(a[1]), num(a[2]), num(a[3]),
      num(pbeta(a[1], a[2], a[3], log.p = TRUE)))
for (a in list(c(0.5, 0.5), c(3, 4.5), c(1e5, 0.5), c(250, 0.5), c(12, 14), c(1e6, 3e6)))
  put("fn lbeta", num(a[1]), num(a[2]), num(lbeta(a[1], a[2])))
close(out)

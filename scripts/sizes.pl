#!/usr/bin/perl
# sizes.pl [ROOT] — the size check run by `make layers` (HACKING.md,
# Sizes): no file of lib/ or cmd/ over 1,000 lines, no function of theirs
# over 100, so that a file holds one thing and a function reads as named
# steps. A function's lines run from the line that names it (its name at
# the start of a line, followed by "(": hq writes its type on the line
# above) to the "}" that closes it at the start of a line.
#
# %generated lists the files a program writes and no one edits by hand,
# with why they may be long; %pending the ones known to be over while
# they are being split, each to be removed from the list when it is done
# (a pending one no longer over fails too, so the list only shrinks).
# tests/cli/0011-sizes.t checks that each fails.
use strict;
use warnings;
use File::Find;

my $MAX_FILE = 1000;
my $MAX_FUNCTION = 100;

my %generated = (
	# Three tables of the FIT profile's names, sorted by number, and the
	# 30 lines that search them: scripts/fit-profile.mjs writes it from
	# Garmin's SDK. A data table, not code to read; it grows with each
	# SDK (Garmin's products), so a split at 1,000 lines would move again.
	'lib/format/fit_profile.c' => 1,
);
# Over the limits on main while their owners split them (file, or
# file:function).
my %pending = map { $_ => 1 } qw(
);

my $root = shift // do { my $d = $0; $d =~ s{/?[^/]*$}{}; ($d eq '' ? '.' : $d) . '/..' };
chdir $root or die "sizes: $root: $!\n";

my @files;
find({ no_chdir => 1, wanted => sub {
	push @files, $File::Find::name if /\.[ch]$/ && -f $_;
} }, grep { -d } qw(lib cmd));
@files = sort map { s{^\./}{}r } @files;

my (@bad, %seen);
for my $f (@files) {
	next if $generated{$f};
	open my $fh, '<', $f or die "sizes: $f: $!\n";
	my ($name, $at, $body);
	while (my $line = <$fh>) {
		if ($line =~ /^(\w+)\(/) {
			($name, $at, $body) = ($1, $., 0);
		} elsif ($line =~ /^\{/ && defined $name) {
			$body = 1;
		} elsif ($line =~ /^\}/ && $body) {
			my $n = $. - $at + 1;
			if ($n > $MAX_FUNCTION) {
				$seen{"$f:$name"} = 1;
				push @bad, "$f:$at: $name() is $n lines, over $MAX_FUNCTION: "
				    . "break it into named steps"
				    unless $pending{"$f:$name"};
			}
			($name, $body) = (undef, 0);
		}
	}
	my $n = $.;
	close $fh;
	if ($n > $MAX_FILE) {
		$seen{$f} = 1;
		push @bad, "$f: $n lines, over $MAX_FILE: split it where it has a "
		    . "seam (HACKING.md, Sizes)" unless $pending{$f};
	}
}
for my $p (sort keys %pending) {
	push @bad, "scripts/sizes.pl: $p is no longer over its limit (or gone): "
	    . "remove it from %pending" unless $seen{$p};
}
for my $g (sort keys %generated) {
	push @bad, "scripts/sizes.pl: $g is in %generated but not in the tree"
	    unless -f $g;
}
if (@bad) {
	print STDERR "sizes: $_\n" for @bad;
	exit 1;
}
printf "sizes: %d files of lib/ and cmd/: none over %d lines, no function "
    . "over %d (%d generated, %d pending)\n", scalar @files, $MAX_FILE,
    $MAX_FUNCTION, scalar keys %generated, scalar keys %pending;

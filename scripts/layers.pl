#!/usr/bin/perl
# layers.pl [ROOT] — the layering check run by `make check` (HACKING.md,
# Layers). lib/ is laid out by layer, lowest first:
#
#     base < out, format < store < read < query < analyze < agent < cli
#
# A file in lib/LAYER/ (or lib/LAYER/SUB/) may include the headers of its
# own layer and of any lower one; out and format are peers that do not
# include each other. A header include/hq/x.h is in the layer of the folder
# that holds lib/.../x.c (%header names the few with no x.c). Internal
# headers (%internal) are included inside their own layer only, as curl's
# vtls_int.h. Every include of "hq/x.h" in lib/ and include/hq/ is checked;
# cmd/, tests/, bench/ and scripts/ sit above every layer.
#
# Prints file:line for each include of a higher layer, a peer, another
# layer's internal header, and each file outside a layer folder, and exits 1;
# exits 0 when there is none (issue 19 took out the last exceptions).
use strict;
use warnings;
use File::Find;

my @order = (['base'], ['out', 'format'], ['store'], ['read'], ['query'],
             ['analyze'], ['agent'], ['cli']);
my %rank;
for my $i (0 .. $#order) { $rank{$_} = $i for @{$order[$i]} }

# Headers with no lib/.../x.c of the same name.
my %header = (llm_provider => 'agent', ingest_int => 'store',
	applehealth_int => 'read', query_int => 'query', svg_int => 'out');
# Headers only their own layer includes.
my %internal = (llm_provider => 'agent', ingest_int => 'store',
	applehealth_int => 'read', query_int => 'query', svg_int => 'out',
	athlete_cache => 'analyze');

my $root = shift // do { my $d = $0; $d =~ s{/?[^/]*$}{}; ($d eq '' ? '.' : $d) . '/..' };
chdir $root or die "layers: $root: $!\n";

my (@files, @bad);
find({ no_chdir => 1, wanted => sub {
	push @files, $File::Find::name if /\.[ch]$/ && -f $_;
} }, 'lib');
my %layer_of;   # header name => layer
for my $f (sort @files) {
	next unless $f =~ m{^lib/(.+)$};
	my @parts = split m{/}, $1;
	if (@parts < 2) {
		push @bad, "$f: not in a layer folder (move it into lib/LAYER/, see HACKING.md)";
		next;
	}
	if (!exists $rank{$parts[0]}) {
		push @bad, "$f: lib/$parts[0]/ is not a layer (scripts/layers.pl, \@order)";
		next;
	}
	(my $name = $parts[-1]) =~ s/\.[ch]$//;
	$layer_of{$name} = $parts[0] if $f =~ /\.c$/;
}
%layer_of = (%layer_of, %header);

sub layer_of_file {
	my ($f) = @_;
	return $1 if $f =~ m{^lib/([^/]+)/};
	if ($f =~ m{^include/hq/(\w+)\.h$}) { return $layer_of{$1} }
	return undef;
}

my @hdrs = glob 'include/hq/*.h';
for my $h (@hdrs) {
	my ($n) = $h =~ m{/(\w+)\.h$};
	push @bad, "$h: no lib/LAYER/$n.c, so no layer (name it in %header in scripts/layers.pl)"
		unless defined $layer_of{$n};
}

my $n_inc;
for my $f ((sort grep { m{^lib/[^/]+/} } @files), @hdrs) {
	my $from = layer_of_file($f);
	next unless defined $from && exists $rank{$from};
	open my $fh, '<', $f or die "layers: $f: $!\n";
	while (my $line = <$fh>) {
		next unless $line =~ /^\s*#\s*include\s+"hq\/(\w+)\.h"/;
		my $h = $1;
		$n_inc++;
		my $to = $layer_of{$h};
		next unless defined $to;   # reported above
		my $why;
		if (exists $internal{$h} && $internal{$h} ne $from) {
			$why = "hq/$h.h is internal to lib/$to/";
		} elsif ($to eq $from) {
			next;
		} elsif ($rank{$to} > $rank{$from}) {
			$why = "$from includes hq/$h.h of $to, a higher layer";
		} elsif ($rank{$to} == $rank{$from}) {
			$why = "$from includes hq/$h.h of $to, a peer";
		} else {
			next;
		}
		push @bad, "$f:$.: $why";
	}
	close $fh;
}
if (@bad) {
	print STDERR "layers: $_\n" for @bad;
	print STDERR "layers: " . scalar(@bad) . " problem(s); the layers are in HACKING.md\n";
	exit 1;
}
printf "layers: %d files, %d includes, none of a higher layer\n",
	scalar(@files) + scalar(@hdrs), $n_inc;
exit 0;

#!/usr/bin/perl
# layers.pl [ROOT [BUILD]] — the layering check run by `make layers` and
# `make check` (HACKING.md, Layers). ROOT is the tree (the script's ..),
# BUILD its build directory (ROOT/build).
#
# It checks what the compiler saw, not how an include is spelled: the .d
# file the build writes beside each object (-MMD) lists every header the
# compiler opened for that source, however it was named ("hq/x.h",
# <hq/x.h>, "../../include/hq/x.h"). For each source of lib/ and cmd/:
#
#   - a file of lib/ reaches only the headers of its own layer, of the
#     layers it sits on in @graph and of theirs; a peer's or a higher
#     layer's fails;
#   - an internal header (%internal, or any file inside lib/LAYER/) is
#     reached only from its own layer: cmd/ may reach every public header,
#     no internal one;
#   - a .d older than a file it lists, or missing, fails: the check would be
#     reading another tree (`make layers` builds first).
#
# Each failure names the #include line that brought the header in (found by
# following the include lines through the headers the .d lists) and the
# layers. Beside the includes: every file of lib/ is in a layer folder and
# in the table of files of that folder's README.md, which names no file
# that is not there, and whose "May include:" sentence names the layers the
# graph lets it include; every header in include/hq/ has a layer, and a
# file of that layer includes it (else what it includes is not seen).
# tests/cli/0006-layers.t checks that each of these fails. tests/, bench/
# and scripts/ sit above every layer and are not checked.
use strict;
use warnings;
use File::Find;
use Cwd qw(realpath);
use File::Spec;

# The graph. One line a layer: its folder under lib/ and the layers whose
# headers it includes directly (@graph is in that order: each line's list
# names lines above it). It may include those, what they may, and its own,
# nothing else: read, query and agent each sit on store and include none of
# each other; render and format neither; store nothing of render. A layer
# is named by its first column everywhere below, so renaming a folder is
# its second column alone.
my @graph = (
	# layer      folder       sits on
	['base',     'base',      []],
	['render',   'render',    [qw(base)]],
	['format',   'format',    [qw(base)]],
	['store',    'store',     [qw(base format)]],
	['read',     'read',      [qw(base format store)]],
	['query',    'query',     [qw(base render store)]],
	['agent',    'agent',     [qw(base store)]],
	['archive',  'archive',   [qw(base store)]],
	['analyze',  'analyze',   [qw(base render format store query)]],
	['cli',      'cli',       [qw(base store query analyze agent archive)]],
);
# Headers of include/hq/ with no lib/.../x.c of the same name: their layer.
my %header = (llm_provider => 'agent', ingest_int => 'store',
	applehealth_int => 'read', query_int => 'query', svg_int => 'render',
	opts_int => 'base');
# Headers of include/hq/ that only their own layer includes (as curl's
# vtls_int.h); a header kept inside lib/LAYER/ is internal too.
my %internal = map { $_ => 1 } qw(llm_provider ingest_int applehealth_int
	query_int svg_int athlete_cache opts_int);

my (%dir, %layer_in, %may);   # layer => folder, folder => layer, layer => {layer}
for my $g (@graph) {
	my ($l, $d, $on) = @$g;
	$dir{$l} = $d;
	$layer_in{$d} = $l;
	$may{$l} = { $l => 1 };
	for my $below (@$on) {
		die "layers: \@graph: $l sits on $below, not a line above it\n"
			unless $may{$below};
		$may{$l}{$_} = 1 for keys %{$may{$below}};
	}
}

my $root = shift // do { my $d = $0; $d =~ s{/?[^/]*$}{}; ($d eq '' ? '.' : $d) . '/..' };
my $build = shift // "$root/build";
$build = File::Spec->rel2abs($build);
chdir $root or die "layers: $root: $!\n";
my $top = realpath('.');

my @bad;
sub bad { push @bad, join '', @_ }

sub files_under {
	my @f;
	find({ no_chdir => 1, wanted => sub {
		push @f, $File::Find::name if /\.[ch]$/ && -f $_;
	} }, grep { -d } @_);
	return sort @f;
}
my @lib = files_under('lib');
my @cmd = grep { /\.c$/ } files_under('cmd');
my @hdrs = sort glob 'include/hq/*.h';

# The layer of a file of the tree (undef for none), and whether it is
# internal to that layer.
my %header_layer = %header;
for my $f (@lib) {
	my ($d, $rest) = $f =~ m{^lib/([^/]+)/(.+)$};
	if (!defined $d) {
		bad "$f: not in a layer folder (move it into lib/LAYER/, see HACKING.md)";
	} elsif (!defined $layer_in{$d}) {
		bad "$f: lib/$d/ is not a layer (add it to \@graph in scripts/layers.pl)";
	} elsif ($rest =~ m{(\w+)\.c$}) {
		my $was = $header_layer{$1};
		bad "$f: a $1.c in lib/$dir{$was}/ too, so hq/$1.h has two layers"
			if defined $was && !defined $header{$1} && $was ne $layer_in{$d};
		$header_layer{$1} //= $layer_in{$d};
	}
}
sub layer_of {
	my ($f) = @_;
	return ($layer_in{$1}, 1) if $f =~ m{^lib/([^/]+)/} && $layer_in{$1};
	return ($header_layer{$1}, $internal{$1} ? 1 : 0)
		if $f =~ m{^include/hq/(\w+)\.h$};
	return (undef, 0);
}
for my $h (@hdrs) {
	my ($n) = $h =~ m{/(\w+)\.h$};
	bad "$h: no lib/LAYER/$n.c, so no layer (name it in %header in scripts/layers.pl)"
		unless defined $header_layer{$n};
}
for my $n (sort keys %header, sort keys %internal) {
	bad "scripts/layers.pl: hq/$n.h named but not in include/hq/"
		unless -f "include/hq/$n.h";
}

# A folder's README.md: { file named in the first column of the table
# whose first column is "file" => line }, the line of its "May include:"
# sentence and the sentence; undef when there is none.
sub readme {
	my ($readme) = @_;
	open my $fh, '<', $readme or return;
	my (%named, $may_line, $may_text, $in_table);
	while (my $line = <$fh>) {
		if ($line =~ /^May include:/) {
			($may_line, $may_text) = ($., $line);
			while ($may_text !~ /\.(\s|$)/ && defined($line = <$fh>)) {
				$may_text .= $line;
			}
			$may_text =~ s/\.(\s.*)?$//s;
			next;
		}
		my ($cell) = $line =~ /^\|\s*([^|]*?)\s*\|/;
		$in_table = defined $cell && ($in_table || $cell eq 'file');
		next if !$in_table || $cell eq 'file' || $cell =~ /^[-:]*$/;
		for my $name (split /\s*,\s*/, $cell) {
			$name =~ s/`//g;
			$named{$name} //= $.;
		}
	}
	close $fh;
	return (\%named, $may_line, $may_text);
}
# Each README: its table of files, both ways, and what it may include, as
# the graph says.
for my $g (@graph) {
	my ($l, $d) = @$g;
	my $readme = "lib/$d/README.md";
	my ($named, $may_line, $may_text) = readme($readme);
	if (!$named) {
		bad "$readme: missing (each layer says what it owns, may include and holds)";
		next;
	}
	for my $f (grep { m{^lib/\Q$d\E/} } @lib) {
		(my $rel = $f) =~ s{^lib/\Q$d\E/}{};
		bad "$f: not in $readme (a row of its table of files says what it holds)"
			unless delete $named->{$rel};
	}
	bad "$readme:$named->{$_}: names $_, which lib/$d/ does not hold"
		for sort { $named->{$a} <=> $named->{$b} } keys %$named;
	my @want = map { "lib/$dir{$_->[0]}" } grep { $_->[0] ne $l && $may{$l}{$_->[0]} } @graph;
	my $want = join(', ', @want) || 'nothing of hq';
	if (!defined $may_line) {
		bad "$readme: no \"May include:\" sentence (it may include $want)";
		next;
	}
	my %said = map { $_ => 1 } $may_text =~ m{\b(lib/\w+)}g;
	delete $said{"lib/$d"};
	my @said = ((grep { delete $said{$_} } @want), sort keys %said);
	bad "$readme:$may_line: \"May include:\" says ", join(', ', @said) || 'nothing of hq',
		"; the graph (scripts/layers.pl) lets lib/$d/ include $want"
		if join(', ', @said) ne join(', ', @want);
}

# The headers a source reached, from its .d: "obj: src hdr hdr \" and then
# a rule per header (-MP). Paths in the tree come back relative to it,
# normalised ("lib/base/../../include/hq/x.h" is include/hq/x.h); the
# system's and the packages' are dropped.
my (%mtime, %in_tree);
sub mtime { $mtime{$_[0]} //= (stat $_[0])[9] // -1 }
sub in_tree {
	my ($p) = @_;
	return $in_tree{$p} if exists $in_tree{$p};
	my $real = realpath($p =~ m{^/} ? $p : "$top/$p");
	return $in_tree{$p} = defined $real && index("$real/", "$top/") == 0
		? substr($real, length($top) + 1) : undef;
}
# { header => 1 } for a source, or why there is none to trust.
sub reached {
	my ($src) = @_;
	(my $d = "$build/obj/$src") =~ s/\.c$/.d/;
	open my $fh, '<', $d or return "not built (no $d: run make layers)";
	my $rule = '';
	while (my $line = <$fh>) {
		$rule .= $line;
		last unless $line =~ /\\\n\z/;
	}
	close $fh;
	$rule =~ s/\\\n/ /g;
	$rule =~ s/^.*?:\s//s;   # the object's name
	my @paths = map { s/\\(.)/$1/gr } $rule =~ /((?:\\.|\S)+)/g;
	my $when = mtime($d);
	my %seen;
	for my $p (@paths) {
		my $t = mtime($p);
		return "$d is older than $p: run make layers" if $t > $when;
		return "$d names $p, which is gone: run make layers" if $t < 0;
		my $f = in_tree($p);
		$seen{$f} = 1 if defined $f && $f ne $src;
	}
	return \%seen;
}

# The #include lines of a file: [line number, spelling, quoted?], cached.
my %lines;
sub includes {
	my ($f) = @_;
	return $lines{$f} //= do {
		my @inc;
		if (open my $fh, '<', $f) {
			while (my $line = <$fh>) {
				push @inc, [$., $2, $1 eq '"']
					if $line =~ /^\s*#\s*include\s*(["<])([^">]+)[">]/;
			}
		}
		\@inc;
	};
}
# Which of the headers a source reached an include line names: a quoted
# one beside the includer first, then any reached header it ends.
sub resolve {
	my ($from, $spelt, $quoted, $seen) = @_;
	if ($quoted) {
		(my $dir = $from) =~ s{[^/]*$}{};
		my $f = in_tree("$dir$spelt");
		return $f if defined $f && $seen->{$f};
	}
	for my $h (sort keys %$seen) {
		return $h if $h eq $spelt || substr($h, -length($spelt) - 1) eq "/$spelt";
	}
	return undef;
}
# Where the include lines of a file lead, among the headers a source
# reached, breadth first: { header => [file, line] naming it first }.
sub walk {
	my ($f, $seen) = @_;
	my %from;
	my @queue = ($f);
	while (defined(my $at = shift @queue)) {
		for my $inc (@{includes($at)}) {
			my $h = resolve($at, $inc->[1], $inc->[2], $seen);
			next if !defined $h || $h eq $f || $from{$h};
			$from{$h} = [$at, $inc->[0]];
			push @queue, $h;
		}
	}
	return \%from;
}
# The shortest chain of include lines to a header in a walk:
# ([file, line, header it names], ...), the last naming $to.
sub chain {
	my ($from, $to) = @_;
	my @c;
	for (my $h = $to; $from->{$h}; $h = $from->{$h}[0]) {
		unshift @c, [@{$from->{$h}}, $h];
	}
	return @c;
}

my (%said, %layer_reached, $n_src, $n_reached);
sub report {
	my ($at, $why, $src) = @_;
	my $key = "$at: $why";
	push @{$said{$key}}, $src;
}
for my $src (@lib, @cmd) {
	next unless $src =~ /\.c$/;
	my ($from) = layer_of($src);
	next if $src =~ m{^lib/} && !defined $from;   # reported above
	$n_src++;
	my $seen = reached($src);
	if (!ref $seen) {
		bad "$src: $seen";
		next;
	}
	my (%lost, $walk);
	for my $h (sort keys %$seen) {
		$n_reached++;
		my ($to, $int) = layer_of($h);
		$layer_reached{$h}{$from} = 1 if defined $from;
		my ($why, $blame);
		(my $name = $h) =~ s{^include/}{};
		if (!defined $to) {
			next if $src =~ m{^cmd/} || $h =~ m{^include/hq/};   # no layer: said above
			$why = "$h is in no layer";
		} elsif ($int && ($from // '') ne $to) {
			$why = "$name is internal to lib/$dir{$to}/";
		} elsif (defined $from && !$may{$from}{$to}) {
			$blame = 1;
		} else {
			next;
		}
		my @chain = chain($walk //= walk($src, $seen), $h);
		if (!@chain) {   # an #include of a macro: said once the loop is done
			$lost{$h} = $why // "$dir{$from} reaches $name of $dir{$to}";
			next;
		}
		my $at = $chain[-1];
		if ($blame) {
			# The first line on the way where a file of one layer includes
			# a header its layer may not (a header of store naming one of
			# query is at fault, not each file of store that includes it).
			for my $link (@chain) {
				my ($l) = layer_of($link->[0]);
				my ($nl) = layer_of($link->[2]);
				next unless defined $l && defined $nl && !$may{$l}{$nl};
				$at = $link;
				$why = "$dir{$l} includes " . ($link->[2] =~ s{^include/}{}r) .
					" of $dir{$nl}, " .
					($may{$nl}{$l} ? 'a higher layer' : 'a peer');
				last;
			}
			$why //= "$dir{$from} reaches $name of $dir{$to}";
		}
		report "$at->[0]:$at->[1]", $why, $src;
	}
	# Of the headers no include line leads to, those the others include
	# are not news.
	my %under = map { %{walk($_, $seen)} } keys %lost;
	report $src, "$lost{$_} (no #include line names it)", $src
		for grep { !$under{$_} } sort keys %lost;
}
for my $key (sort keys %said) {
	my @src = @{$said{$key}};
	my ($at) = $key =~ /^([^:]+)/;
	my $via = $at eq $src[0] ? ''
		: " (seen compiling $src[0]" . (@src > 1 ? ' and ' . (@src - 1) . ' more' : '') . ')';
	bad "$key$via";
}
for my $h (@hdrs) {
	my ($l) = layer_of($h);
	next if !defined $l || $layer_reached{$h}{$l};
	bad "$h: no file of lib/$dir{$l}/ includes it, so what it includes is not checked";
}

if (@bad) {
	print STDERR "layers: $_\n" for @bad;
	print STDERR "layers: " . scalar(@bad) . " problem(s); the layers are in HACKING.md\n";
	exit 1;
}
printf "layers: %d includes seen compiling %d sources of lib/ and cmd/: all allowed\n",
	$n_reached, $n_src;
exit 0;

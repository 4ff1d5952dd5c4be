/* cellcheck - count the misaligned rows of TUI screen dumps (hardening).
 * cellcheck COLS FILE...: a row is misaligned when its display width (wcwidth,
 * C.UTF-8) is more than COLS, or when it has a vertical border (│) in a
 * column where no row of the same screen has a box corner or tee, nor a
 * border in the row above or below: text whose width amc and the terminal
 * count differently shifts the cells after it. Prints the count, then one
 * line per misaligned row (FILE:ROW). Exit 0, 2 on a usage or read error. */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#define MAX_ROWS 400
#define MAX_COLS 1000

static int is_corner(wchar_t c)
{
	return c == L'┌' || c == L'┐' || c == L'└' || c == L'┘' || c == L'├' || c == L'┤' || c == L'┬' ||
	       c == L'┴' || c == L'┼' || c == L'╭' || c == L'╮' || c == L'╰' || c == L'╯';
}

/* Columns of each cell's character in one row; width in *w. */
static int row_cells(const char *line, wchar_t *cell, int *w)
{
	mbstate_t st;
	memset(&st, 0, sizeof st);
	int col = 0;
	size_t len = strlen(line);
	for (size_t i = 0; i < len;) {
		wchar_t c;
		size_t k = mbrtowc(&c, line + i, len - i, &st);
		if (k == (size_t)-1 || k == (size_t)-2) {
			memset(&st, 0, sizeof st);
			c = L'?';
			k = 1;
		}
		if (k == 0)
			break;
		int cw = wcwidth(c);
		if (cw < 0)
			cw = 1;
		if (col < MAX_COLS)
			cell[col] = c;
		col += cw;
		i += k;
	}
	*w = col;
	return 0;
}

static int check(const char *path, int cols, int *bad)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		perror(path);
		return -1;
	}
	static wchar_t cells[MAX_ROWS][MAX_COLS];
	static int width[MAX_ROWS];
	static char corner_col[MAX_COLS];
	memset(cells, 0, sizeof cells);
	memset(corner_col, 0, sizeof corner_col);
	char line[16384];
	int rows = 0;
	while (rows < MAX_ROWS && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = 0;
		row_cells(line, cells[rows], &width[rows]);
		for (int c = 0; c < MAX_COLS; c++)
			if (is_corner(cells[rows][c]))
				corner_col[c] = 1;
		rows++;
	}
	fclose(f);
	for (int r = 0; r < rows; r++) {
		int off = width[r] > cols;
		for (int c = 0; c < MAX_COLS && !off; c++) {
			if (cells[r][c] != L'│' || corner_col[c])
				continue;
			/* a lone border: one in the same column above or below makes it a drawn line */
			int near = (r > 0 && cells[r - 1][c] == L'│') || (r + 1 < rows && cells[r + 1][c] == L'│');
			off = !near;
		}
		if (off) {
			printf("%s:%d\n", path, r + 1);
			(*bad)++;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3 || atoi(argv[1]) <= 0) {
		fprintf(stderr, "usage: cellcheck COLS FILE...\n");
		return 2;
	}
	if (!setlocale(LC_ALL, "C.UTF-8")) {
		fprintf(stderr, "cellcheck: no C.UTF-8 locale\n");
		return 2;
	}
	int cols = atoi(argv[1]), bad = 0;
	for (int i = 2; i < argc; i++)
		if (check(argv[i], cols, &bad) != 0)
			return 2;
	printf("%d\n", bad);
	return 0;
}

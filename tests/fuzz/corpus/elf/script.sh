#!/bin/sh
echo not elf
